"""The files ``toolscore init`` writes: a snapshot test suite that passes on its first run.

For each framework the test file holds a stand-in ``_fake_agent_response`` returning that
framework's native response shape (one ``search`` call with ``{"query": "toolscore"}``), so
the first ``pytest`` run records a snapshot through the same extraction a real agent's
response goes through.
"""

from __future__ import annotations

from pathlib import Path
from string import Template

from toolscore_pytest.frameworks import FRAMEWORKS

#: How a typical agent of each framework is called (shown commented out in the test file).
USAGE: dict[str, tuple[str, ...]] = {
    "langgraph": (
        "from langgraph.prebuilt import create_react_agent",
        "",
        "graph = create_react_agent(model, tools=[search])",
        'state = graph.invoke({"messages": [("user", prompt)]})',
    ),
    "pydantic_ai": (
        "from pydantic_ai import Agent",
        "",
        'agent = Agent("openai:gpt-4o", tools=[search])',
        "run = agent.run_sync(prompt)",
    ),
    "openai_agents": (
        "from agents import Agent, Runner",
        "",
        'agent = Agent(name="assistant", tools=[search])',
        "run = Runner.run_sync(agent, prompt)",
    ),
    "crewai": (
        "from crewai import Agent, Crew, Task",
        "",
        "crew = Crew(agents=[researcher], tasks=[research_task])",
        'output = crew.kickoff(inputs={"prompt": prompt})',
    ),
    "claude_agent_sdk": (
        "from claude_agent_sdk import query",
        "",
        "messages = [message async for message in query(prompt=prompt, options=options)]",
    ),
    "openai": (
        "from openai import OpenAI",
        "",
        "response = OpenAI().chat.completions.create(",
        '    model="gpt-4o", tools=tools,',
        '    messages=[{"role": "user", "content": prompt}],',
        ")",
    ),
    "anthropic": (
        "import anthropic",
        "",
        "response = anthropic.Anthropic().messages.create(",
        '    model="claude-sonnet-4-5", max_tokens=1024, tools=tools,',
        '    messages=[{"role": "user", "content": prompt}],',
        ")",
    ),
    "generic": (
        "from my_project.agent import run_agent",
        "",
        "calls = run_agent(prompt)  # a list of {'tool': ..., 'args': {...}} dicts",
    ),
}

#: The stand-in response of each framework, as Python source indented for a ``return``.
FAKE_RESPONSES: dict[str, str] = {
    "langgraph": """{
        "messages": [
            {
                "content": "",
                "tool_calls": [
                    {"name": "search", "args": {"query": "toolscore"}, "id": "call_1"},
                ],
            },
        ]
    }""",
    "pydantic_ai": """[
        {
            "kind": "response",
            "parts": [
                {
                    "part_kind": "tool-call",
                    "tool_name": "search",
                    "args": {"query": "toolscore"},
                    "tool_call_id": "call_1",
                }
            ],
        }
    ]""",
    "openai_agents": """[
        {
            "type": "tool_call_item",
            "raw_item": {
                "type": "function_call",
                "name": "search",
                "arguments": '{"query": "toolscore"}',
                "call_id": "call_1",
            },
        }
    ]""",
    "crewai": """{
        "raw": "Found it.",
        "tools_results": [
            {"tool_name": "search", "tool_args": {"query": "toolscore"}, "result": "..."},
        ],
    }""",
    "claude_agent_sdk": """[
        {
            "content": [
                {"type": "text", "text": "Let me search."},
                {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "toolscore"}},
            ]
        }
    ]""",
    "openai": """{
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "search", "arguments": '{"query": "toolscore"}'},
                        }
                    ],
                }
            }
        ]
    }""",
    "anthropic": """{
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"query": "toolscore"}},
        ],
    }""",
    "generic": """[
        {"tool": "search", "args": {"query": "toolscore"}},
    ]""",
}

TEST_FILE = Template('''"""Tool-call tests for a ${label} agent, written by ``toolscore init``.

How it works:

1. Run ``pytest``. The first run records what the agent called under
   ``.toolscore/snapshots/`` and passes with a "pending approval" note.
2. Look at the recorded file, then run ``toolscore approve --all``.
3. From now on every run replays the agent against that baseline. Change the query in
   ``_fake_agent_response`` and run ``pytest`` again to watch the drift table.
4. Replace ``_fake_agent_response`` with your real agent.

No API key needed yet: ``toolscore demo`` shows a full health check of a sample MCP server.
"""

import toolscore  # noqa: F401 - used by the commented example at the end

# ---------------------------------------------------------------------------------------
# TODO: call your ${label} agent instead of the stand-in below, for example:
#
${usage}
#
# ``toolscore_snapshot`` takes the framework's own response object; it finds the tool
# calls in it by itself.
# ---------------------------------------------------------------------------------------


def _fake_agent_response(prompt: str) -> object:
    """A stand-in ${label} response with one tool call, so the suite passes today."""
    return ${fake}


def test_agent_tool_calls(toolscore_snapshot):
    """Records the agent's tool calls once; after approval, fails when they change."""
    response = _fake_agent_response("find the toolscore docs")
    toolscore_snapshot(response)


# Explicit expectations, without a snapshot (uncomment to use):
#
# def test_agent_searches_and_never_deletes():
#     response = _fake_agent_response("find the toolscore docs")
#     toolscore.expect(response).calls("search", query=toolscore.ANY).does_not_call(
#         "delete_file"
#     ).with_score(0.9).run()
''')

WORKFLOW = """name: Toolscore

# Replays the approved tool-call snapshots on every push and pull request. Snapshots are
# recorded and approved on a developer machine; in CI (where CI=true) a missing or pending
# snapshot fails the job instead of being recorded.

on:
  push:
    branches: [main]
  pull_request:

jobs:
  toolscore:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4

      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"

      - name: Install
        run: |
          python -m pip install --upgrade pip
          pip install toolscore pytest
          # TODO: install your agent's dependencies too, e.g. pip install -r requirements.txt

      - name: Replay tool-call snapshots
        run: pytest --rootdir=. tests/ -q
"""


def render_test_file(framework: str) -> str:
    """The test module for ``framework`` (an unknown name gets the generic one)."""
    key = framework if framework in FRAMEWORKS else "generic"
    usage = "\n".join(f"#     {line}" if line else "#" for line in USAGE[key])
    return TEST_FILE.substitute(label=FRAMEWORKS[key], usage=usage, fake=FAKE_RESPONSES[key])


def render_workflow() -> str:
    """The GitHub Actions workflow that replays the snapshots."""
    return WORKFLOW


def scaffold(
    framework: str, directory: Path, *, with_ci: bool = True, force: bool = False
) -> list[Path]:
    """Write the suite into ``directory`` and return the files written.

    Without ``force``, an existing file that would get content raises ``FileExistsError``
    (naming it) before anything is written; an existing ``.gitkeep`` is left alone.
    """
    from toolscore.fileio import atomic_write_text

    directory = Path(directory)
    targets: list[tuple[Path, str]] = [
        (directory / "tests" / "test_agent_tools.py", render_test_file(framework)),
        (directory / ".toolscore" / "snapshots" / ".gitkeep", ""),
    ]
    if with_ci:
        targets.append((directory / ".github" / "workflows" / "toolscore.yml", render_workflow()))
    if not force:
        for path, content in targets:
            if content and path.exists():
                raise FileExistsError(str(path))
    written: list[Path] = []
    for path, content in targets:
        if not content and path.exists():
            continue
        atomic_write_text(path, content)
        written.append(path)
    return written
