"""--resume reads only what an earlier run of this dataset wrote: one valid line per case.

Lines that are not result lines, results for ids the dataset does not have, second results
for one id and scores that are not numbers in [0, 1] are named (file:line) and dropped; their
cases are scored again, so the finished file equals an uninterrupted run's.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

from batch_support import make_dataset, sorted_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolscore.batch import evaluate_dataset

CASES = 30


def _run(dataset: Path, out: Path, *, resume: bool) -> tuple[object, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        aggregate = evaluate_dataset(dataset, workers=1, out=out, resume=resume).finish()
    return aggregate, [str(w.message) for w in caught]


def _reference(tmp_path: Path) -> tuple[Path, list[str]]:
    dataset = tmp_path / "cases.jsonl"
    make_dataset(dataset, CASES, seed=9)
    whole = tmp_path / "whole.jsonl"
    _run(dataset, whole, resume=False)
    return dataset, whole.read_text().splitlines(keepends=True)


def test_duplicates_foreign_ids_and_bad_scores_are_dropped_and_named(tmp_path: Path) -> None:
    dataset, lines = _reference(tmp_path)
    first = json.loads(lines[0])
    foreign = {**first, "id": "not-in-the-dataset"}
    nan = {**json.loads(lines[1]), "score": math.nan}
    negative = {**json.loads(lines[2]), "score": -5}
    out = tmp_path / "out.jsonl"
    out.write_text(
        "".join(lines[:5])
        + lines[0]  # line 6: a second result for an id
        + json.dumps(foreign) + "\n"  # line 7
        + json.dumps(nan) + "\n"  # line 8 (an earlier valid line has this id anyway)
        + json.dumps(negative) + "\n"  # line 9
        + "{not json\n"  # line 10
    )  # fmt: skip
    aggregate, messages = _run(dataset, out, resume=True)
    assert aggregate.cases == CASES  # type: ignore[attr-defined]
    assert aggregate.resumed == 5  # type: ignore[attr-defined]
    assert sorted_lines(out) == sorted_lines(tmp_path / "whole.jsonl")
    text = "\n".join(messages)
    assert f"{out}:6: id {first['id']!r} has an earlier result line" in text
    assert f"{out}:7: id 'not-in-the-dataset' is not in the dataset" in text
    assert f"{out}:8: score nan is not a number in [0, 1]" in text
    assert f"{out}:9: score -5.0 is not a number in [0, 1]" in text
    assert f"{out}:10: not a result line" in text


def test_a_nan_score_for_an_unscored_case_is_scored_again(tmp_path: Path) -> None:
    dataset, lines = _reference(tmp_path)
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({**json.loads(lines[3]), "score": math.nan}) + "\n")
    aggregate, _ = _run(dataset, out, resume=True)
    assert aggregate.cases == CASES  # type: ignore[attr-defined]
    assert math.isfinite(aggregate.mean)  # type: ignore[attr-defined]
    assert sorted_lines(out) == sorted_lines(tmp_path / "whole.jsonl")


JUNK = st.one_of(
    st.binary(max_size=60).map(lambda b: b.replace(b"\n", b"") + b"\n"),
    st.recursive(
        st.none() | st.booleans() | st.floats() | st.integers() | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.sampled_from(["id", "score", "grade", "x"]), inner, max_size=4)
        ),
        max_leaves=8,
    ).map(lambda value: (json.dumps(value) + "\n").encode()),
    st.just(b"\n"),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kept=st.integers(min_value=0, max_value=CASES),
    junk=st.lists(st.tuples(st.integers(min_value=0, max_value=CASES), JUNK), max_size=6),
    repeats=st.lists(st.integers(min_value=0, max_value=CASES - 1), max_size=3),
    torn=st.booleans(),
)
def test_random_junk_in_the_results_never_changes_the_final_results(
    tmp_path_factory: object, kept: int, junk: list[tuple[int, bytes]], repeats: list[int],
    torn: bool,
) -> None:  # fmt: skip
    folder = tmp_path_factory.mktemp("resume")  # type: ignore[attr-defined]
    dataset, lines = _reference(folder)
    body = [line.encode() for line in lines[:kept]]
    body += [lines[i].encode() for i in repeats]
    for position, chunk in sorted(junk, key=lambda item: item[0], reverse=True):
        body.insert(min(position, len(body)), chunk)
    data = b"".join(body)
    if torn:
        data += lines[-1].encode()[:17]
    out = folder / "out.jsonl"
    out.write_bytes(data)
    aggregate, _ = _run(dataset, out, resume=True)
    assert sorted_lines(out) == sorted_lines(folder / "whole.jsonl")
    assert aggregate.cases == CASES  # type: ignore[attr-defined]
