"""Run the reference ``tool-scorer`` 1.10.0 on JSON cases; used by the differential test.

Run it with the reference's interpreter (``/opt/refvenv/bin/python``), never ours. It reads
a JSON list of cases from stdin, each ``{"expected", "actual", "weights", "strict",
"forbidden"}`` in plain JSON. Matchers are written in toolscore's ``$`` forms and converted
to the reference's matcher objects here: in expected arguments ``$regex`` (full match),
``$contains``, ``$one_of``, ``$any``, ``$approx``, ``$type``; in forbidden rules through the
reference's own ``rules_from_json``. It prints a JSON list with, per case, ``metrics`` (as
in ``to_dict()``), ``score``, ``grade``, and ``pairing`` (the reference's pairing as
``[expected, actual]`` pairs) when some tool has more than 12 actual calls; or ``error``
(type and message) when the reference raised.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import toolscore
from toolscore import matchers as m
from toolscore.metrics.arguments import _best_pairing
from toolscore.metrics.policy import rules_from_json

_TYPES = {
    "str": (str,),
    "string": (str,),
    "int": (int,),
    "integer": (int,),
    "float": (float,),
    "number": (int, float),
    "bool": (bool,),
    "boolean": (bool,),
    "list": (list,),
    "array": (list,),
    "dict": (dict,),
    "object": (dict,),
    "null": (type(None),),
}


def to_matchers(value: Any) -> Any:
    """Our JSON matcher forms -> the reference's matcher objects, at any depth."""
    if isinstance(value, list):
        return [to_matchers(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((key, operand),) = value.items()
        if key == "$regex":
            return m.Regex(operand)
        if key == "$contains":
            return m.Contains(to_matchers(operand))
        if key == "$one_of":
            return m.OneOf(*to_matchers(operand))
        if key == "$any":
            return m.ANY
        if key == "$approx":
            if isinstance(operand, dict):
                return m.Approx(
                    operand["value"], rel=operand.get("rel", 1e-6), abs=operand.get("abs", 0.0)
                )
            return m.Approx(operand)
        if key == "$type":
            names = operand if isinstance(operand, list) else [operand]
            types: list[type] = []
            for name in names:
                types.extend(t for t in _TYPES[name] if t not in types)
            return m.IsType(*types)
    return {k: to_matchers(v) for k, v in value.items()}


def run(case: dict[str, Any]) -> dict[str, Any]:
    expected = [
        {**call, "args": to_matchers(call["args"])} if call.get("args") is not None else call
        for call in case["expected"]
    ]
    forbidden = case.get("forbidden")
    if forbidden is not None:
        forbidden = rules_from_json(forbidden)
    strict = bool(case.get("strict", False))
    try:
        result = toolscore.evaluate(
            expected,
            case["actual"],
            weights=case.get("weights"),
            strict=strict,
            forbidden=forbidden,
        )
    except Exception as exc:
        return {"error": [type(exc).__name__, str(exc)]}
    out: dict[str, Any] = {
        "metrics": result.to_dict()["metrics"],
        "score": result.score,
        "grade": result.grade,
    }
    if any(n > 12 for n in Counter(c.tool for c in result.trace_calls).values()):
        pairing = _best_pairing(result.gold_calls, result.trace_calls, strict)
        out["pairing"] = sorted([i, j] for i, j in pairing.items())
    return out


def main() -> None:
    cases = json.load(sys.stdin)
    json.dump([run(case) for case in cases], sys.stdout)


if __name__ == "__main__":
    main()
