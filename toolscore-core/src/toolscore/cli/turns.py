"""``toolscore eval GOLD CONVERSATION`` when the gold file holds ``{"turns": [...]}``.

Why its own module: a turn-by-turn verdict is a list of per-turn scores and fixes, not one
evaluation, so it is printed and written (``{"turns": ...}`` in the JSON report) on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["evaluate_turn_files", "turns_in_gold"]


def turns_in_gold(gold_file: Path) -> list[Any] | None:
    """The gold file's ``turns`` list, or ``None`` when it has none (a one-turn gold).

    :raises toolscore.errors.InputError: ``turns`` is there but not a list of arrays.
    """
    from toolscore.errors import InputError
    from toolscore.loading import read_json

    data = read_json(gold_file, what="Gold standard file")
    if not isinstance(data, Mapping) or "turns" not in data:
        return None
    turns = data["turns"]
    if not isinstance(turns, list):
        raise InputError("expected an array of turns", source=str(gold_file), path="$.turns")
    for index, turn in enumerate(turns):
        if not isinstance(turn, list):
            raise InputError(
                "expected an array of calls", source=str(gold_file), path=f"$.turns[{index}]"
            )
    return turns


def evaluate_turn_files(
    pm: Any,
    turns: list[Any],
    trace_file: Path,
    *,
    output: Path,
    weights: dict[str, float] | None,
    console: Any,
) -> Any:
    """Score the conversation turn by turn, print each turn and its fixes, write the JSON."""
    from toolscore.fileio import atomic_write_json
    from toolscore.loading import read_json
    from toolscore.turns import evaluate_turns

    conversation = read_json(trace_file, what="Trace file")
    result = evaluate_turns(turns, conversation, plugin_manager=pm, weights=weights)
    record = result.to_dict()
    for turn in record["turns"]:
        console.print(
            f"turn {turn['turn']}: score {turn['score']:.2f} ({turn['grade']})  "
            f"expected {turn['expected']}, got {turn['actual']}",
            markup=False,
        )
        for fix in turn["fixes"]:
            console.print(f"    - {fix}", markup=False)
    console.print(
        f"conversation: score {record['score']:.2f} ({record['grade']}), mean of "
        f"{len(record['turns'])} turns",
        markup=False,
    )
    atomic_write_json(output, {"turns": record})
    return result
