"""``toolscore eval GOLD CONVERSATION`` when the gold file holds ``{"turns": [...]}``.

Why its own module: a turn-by-turn verdict is a list of per-turn scores and fixes, not one
evaluation, so it is printed and written (``{"turns": ...}`` in the JSON report) on its own.
The options that apply to one turn's evaluation (``--format``, ``--match``/``--args``,
``--tools``, ``--forbidden``, ``--weight``, ``--option``) apply to every turn; the gates
(``--fail-under``, ``--fail-on-violations``) apply to the whole conversation.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["UNSUPPORTED", "evaluate_turn_files", "turns_in_gold", "violation_count"]

#: Options ``toolscore eval`` refuses for a gold file with turns (exit 2), and why: their
#: reporters and the judge render one evaluation, not a list of turns, and ignoring them
#: silently would leave a user believing a report was written.
UNSUPPORTED = (
    "--html, --csv, --markdown, --junit, --report, --llm-judge and --save-baseline "
    "take one evaluation, not a gold file with turns; the JSON report (-o) holds every turn"
)


def turns_in_gold(gold_file: Path) -> Any | None:
    """The decoded gold document when it has ``turns``, else ``None`` (a one-turn gold).

    The turns themselves are checked by :func:`evaluate_turn_files`.
    """
    from toolscore.loading import read_json

    data = read_json(gold_file, what="Gold standard file")
    if not isinstance(data, Mapping) or "turns" not in data:
        return None
    return data


def evaluate_turn_files(
    pm: Any,
    gold: Any,
    gold_file: Path,
    trace_file: Path,
    *,
    trace_format: str,
    output: Path,
    weights: dict[str, float] | None,
    options: dict[str, Any],
    match: Any,
    tools_file: Path | None,
    forbidden_file: Path | None,
    console: Any,
) -> Any:
    """Score the conversation turn by turn, print each turn and its fixes, write the JSON.

    The gold document is read by the step parser first, so a bad turn or step is one line
    naming the file and its JSON path. ``match`` (``--match``/``--args``) overrides the gold
    file's ``match``; tools come from ``tools_file``, else the gold file's ``tools``, else the
    conversation's request, as for ``evaluate_trace``.

    :raises toolscore.errors.InputError: a file or a gold step is invalid.
    """
    from toolscore.expectations.document import parse_gold_document
    from toolscore.fileio import atomic_write_json
    from toolscore.loading import read_json
    from toolscore.matching._gold import load_match
    from toolscore.tool_schemas.definitions import schemas_for_files
    from toolscore.turns import evaluate_turns

    parse_gold_document(gold, source=str(gold_file), plugin_manager=pm)
    rules = None
    if forbidden_file is not None:
        from toolscore.metrics.policy import load_forbidden_rules

        rules = load_forbidden_rules(forbidden_file)
    spec = match if match is not None else load_match(gold_file)
    tools = schemas_for_files(gold_file, trace_file, tools_file)
    conversation = read_json(trace_file, what="Trace file")
    result = evaluate_turns(
        gold["turns"],
        conversation,
        plugin_manager=pm,
        format=trace_format,
        weights=weights,
        options=options or None,
        match=spec,
        tools=tools,
        forbidden=rules,
    )
    record = result.to_dict()
    for turn in record["turns"]:
        console.print(
            f"turn {turn['turn']}: score {turn['score']:.2f} ({turn['grade']})  "
            f"expected {turn['expected']}, got {turn['actual']}",
            markup=False,
        )
        for fix in turn["fixes"]:
            console.print(f"    - {fix}", markup=False)
        if turn["policy_violations"]:
            console.print(
                f"    - {turn['policy_violations']} forbidden call(s) (--forbidden)", markup=False
            )
    console.print(
        f"conversation: score {record['score']:.2f} ({record['grade']}), mean of "
        f"{len(record['turns'])} turns",
        markup=False,
    )
    atomic_write_json(output, {"turns": record})
    return result


def violation_count(result: Any) -> int:
    """Forbidden calls and credentials found in every turn (``--fail-on-violations``)."""
    count = 0
    for turn in result.turns:
        security = turn.metrics.get("security_metrics", {})
        count += len(turn.policy_violations) + int(security.get("secret_count", 0))
    return count
