"""Say whose fault a failed happy-path call was: the server's, our input's, or the machine's.

A server author signs a verdict only when it blames the right party. Each failed happy-path
call falls in one of three categories:

* ``defect``: the server is at fault. It crashed, hung, answered with an internal error or a
  traceback for input it should accept, or refused input without giving any reason;
* ``rejected-input``: the server blamed our value (a validation message, a hint) or its own
  state (the thing we named does not exist). Inconclusive: a value we made up may be wrong;
* ``environment``: the call needed what this offline machine lacks (network, DNS, TLS, a
  credential, a rate limit, a program or browser). Inconclusive, and we say what was missing.

The judgement reads the error text and weighs how sure we were of our arguments: input built
from certain evidence (the user's scenario file, a recording, the schema's own enum or
examples, plain text) that the server refuses is the server's defect; input we guessed from a
parameter's meaning is not. "Not found" is missing state, except for text the file we gave the
tool surely holds (a fresh copy of a sandbox file, :mod:`toolscore_mcp.values.fresh_copy`).
Some answers blame the server whatever we sent: "module 'x' has no attribute 'y'" is its code
calling what its library lacks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.grading.unfinished import says_unfinished
from toolscore_mcp.model import SANDBOX_TEXT

__all__ = [
    "CERTAIN_SOURCES",
    "VOUCHED_SOURCES",
    "Classification",
    "classify_failure",
    "defect_whatever_the_state",
    "environment_need",
    "looks_like_internal_error",
    "missing_credential_line",
    "policy_fix",
]

#: Evidence for a value that any correct server must accept as valid input.
CERTAIN_SOURCES = frozenset({"scenario-file", "recorded", "schema", "plain"})
#: Evidence that names this very value as valid: refusing it by name is a defect. (A plain
#: number fits the schema's type, but a server may still bound it where the schema is silent.)
VOUCHED_SOURCES = frozenset({"scenario-file", "recorded", "schema"})

_NETWORK = lazy_pattern(
    r"getaddrinfo|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH"
    r"|name or service not known|temporary failure in name resolution|nodename nor servname"
    r"|no address associated with hostname|could not resolve|failed to resolve|dns"
    r"|network is unreachable|network error|network unreachable|no route to host"
    r"|failed to establish a new connection|max retries exceeded|connecterror|connecttimeout"
    r"|connection (?:refused|reset|aborted|error|issue|timed out)|socket hang up|fetch failed"
    r"|failed to fetch|unable to connect|could not connect|cannot connect|connect call failed"
    r"|ssl|certificate|\btls\b|handshake|proxy error|offline|internet|request to https?://\S+ failed"
    r"|failed to download|download (?:failed|error)|error downloading|(?:could not|couldn't|cannot"
    r"|unable to) (?:fetch|download)",
    re.IGNORECASE,
)
_CREDENTIALS = lazy_pattern(
    r"api[ _-]?key|api[ _-]?token|access[ _-]?token|auth[ _-]?token|bearer|unauthori[sz]ed"
    r"|\b401\b|\b403\b|forbidden|authenticat|credential|not logged in|login required"
    r"|(?:environment variable|env var)\S* \S+ (?:is )?(?:not set|missing|required)"
    r"|(?:missing|invalid|no) (?:\S+ )?(?:key|token|secret)\b|permission to access the api"
    # Only the vendor's hosted service (an account) does it: "not implemented for Local X".
    r"|not (?:implemented|supported|available) (?:for|in|on|with) (?:the )?(?:local|self-hosted)\b"
    r"|only (?:available|supported) (?:on|in|with) (?:the )?\w* ?(?:cloud|hosted|enterprise|paid)\b",
    re.IGNORECASE,
)
#: A refusal that names a start option or the server's own policy: the environment the server
#: was started in, not a defect. ``fix`` is the option to start it with, when it names one.
_START_OPTION = lazy_pattern(
    r"(?:start|run|launch|restart)(?: the server| it)? with (?P<fix>--?[A-Za-z][\w-]*(?:=\S+)?)",
    re.IGNORECASE,
)
_POLICY = lazy_pattern(
    r"security violation|disabled by (?:the )?(?:configuration|config|policy|administrator|server)"
    r"|not (?:a )?public (?:ip )?address|is not allowed by (?:the )?(?:server|policy|configuration)"
    r"|(?:command|program|host|domain|url|ip|address|operation|tool) \S+ is not allowed"
    r"|outside (?:of )?(?:the )?allowed (?:directories|roots|paths)|not in (?:the )?allow ?list"
    r"|(?:blocked|forbidden|denied) by (?:the )?(?:server|policy|configuration)",
    re.IGNORECASE,
)
_RATE_LIMIT = lazy_pattern(r"rate[ -]?limit|\b429\b|too many requests|quota", re.IGNORECASE)
_BINARY = lazy_pattern(
    r"command not found|executable (?:not found|doesn't exist|does not exist)|spawn \S+ enoent"
    r"|not installed|is \w+ installed\b|is not recognized as an internal|playwright install"
    r"|browser(?:type)?\.launch"
    r"|chrom(?:e|ium) (?:not found|is not installed)|no such file or directory: '[^/'\s]+'$"
    r"|install (?:the )?(?:browser|chromium|binary)"
    r"|requires? (?:a |the )?(?:google )?(?:chrom(?:e|ium)|(?:web )?browser)\b"
    r"|please install (?:google )?chrom(?:e|ium)"
    r"|(?:couldn't|could not|unable to|failed to) (?:open|launch|find) (?:the |a )?(?:web )?browser"
    # "Command 'osascript' not found"; "not implemented for linux": a program this OS lacks.
    r"|\b(?:command|program|executable|binary) [\"'`]?[\w.+-]+[\"'`]? (?:was )?not found"
    r"|not (?:implemented|supported|available) (?:for|on|in) (?:the )?(?:linux|windows|win32|macos"
    r"|mac ?os|os ?x|darwin|this (?:platform|os|operating system|system)|your (?:platform|os))\b",
    re.IGNORECASE,
)
_INTERNAL = lazy_pattern(
    r"traceback \(most recent call last\)|internal (?:server )?error|unexpected error"
    r"|unhandled (?:exception|error)|\b(?:TypeError|AttributeError|KeyError|IndexError|NameError"
    r"|ValueError|ZeroDivisionError|AssertionError|RuntimeError|UnboundLocalError|"
    r"NullPointerException|ReferenceError|RangeError)\b|cannot read propert(?:y|ies) of"
    r"|is not a function|undefined is not|nonetype|object has no attribute|segmentation fault"
    r"|panic(?:ked)?:|stack overflow|maximum call stack|unsupported operand type\(s\)",
    re.IGNORECASE,
)
_STATE = lazy_pattern(
    r"not found|(?:could not|couldn't|cannot|can't|unable to) find|(?:contains|has|have|holds) no\b|"
    r"no \w+ (?:found|available|present|defined)|no (?:exact )?match|"
    r"no changes|nothing to (?:commit|do|update)|(?:use|call|run) \S+ .{0,60}\bfirst\b|"
    r"no such|does not exist|doesn't exist|not exist|unknown (?!argument|parameter"
    r"|field|property|key|option)\w+|already exists|no (?:\w+ )?(?:named|with (?:id|name))"
    r"|not a (?:git )?repository|not (?:a )?(?:valid )?(?:file|directory|folder)|is a directory"
    r"|is empty|no (?:\w+ )?(?:selected|open|loaded|available)|not (?:open|loaded|initiali[sz]ed"
    r"|connected|running|started)|must (?:first|be created)|create (?:one|it) first|enoent|eisdir"
    # "No presentation is currently loaded", "no document is open": nothing to act on yet.
    r"|no \w+ (?:is |are )?(?:currently |yet )?(?:loaded|open|opened|selected|active)\b"
    # "Shape at index 0 is not a table": what sits there is another kind of thing.
    r"|\b(?:at (?:index|position) \S+|shape|object|item|element|cell|node|entry) is not an? "
    r"(?!valid\b|function\b|number\b|string\b)\w+"
    r"|enotdir|outside (?:of )?(?:the )?allowed|access denied|permission denied|not allowed to access"
    # Chinese and Japanese: cannot find, does not exist, not found.
    r"|找不到|不存在|未找到|見つかりません",
    re.IGNORECASE,
)
_BLAMES_INPUT = lazy_pattern(
    r"only [\w ]{1,40} (?:are|is) (?:allowed|supported|accepted|permitted)|"
    r"validation error|invalid|must (?:be|match|point|refer|contain|have|start|end|include"
    r"|use|specify|name)\b|should be|\bexpected\b|is not (?:a )?valid"
    r"|not one of|does not match|is required|required (?:property|field|argument|parameter)"
    r"|missing (?:required )?(?:argument|parameter|field|property)|unrecognized"
    r"|unknown (?:argument|parameter|field|property|key|value|option)|out of range"
    r"|too (?:long|short|large|small|many|few|big)|not allowed|unsupported"
    r"|check (?:that|whether|if) (?:the )?\w+ (?:is|are) (?:valid|correct|right)"
    r"|no valid \w+|not supported|no \w+ (?:\w+ )?(?:specified|provided|given|selected) for\b"
    r"|(?:could not|cannot|can't|failed to|unable to) (?:parse|decode|convert)|malformed"
    r"|input should|not found|no such|does not exist|doesn't exist|not exist"
    r"|(?:cannot|can't|can not) (?:specify|use|combine|set|provide|pass|give) (?:both|more than)"
    r"|mutually exclusive|only one of|not both|simultaneously|at the same time",
    re.IGNORECASE,
)
#: Python's AttributeError on a module: the server's code calls what its library lacks, which
#: no input can cause or cure.
_MODULE_LACKS = lazy_pattern(r"\bmodule '[\w.]+' has no attribute '\w+'")
#: An answer that says, in its own JSON, that the call succeeded.
_SUCCESS_CLAIMED = lazy_pattern(r"\"(?:success|ok)\"\s*:\s*true\b", re.IGNORECASE)
_REASON_WORDS = lazy_pattern(r"[A-Za-z]{3,}")
_BARE = lazy_pattern(
    r"^\W*(?:error|failed|failure|exception|false|null|none|undefined|unknown error|"
    r"an error occurred|something went wrong|tool execution failed|error executing tool \S+)\W*$",
    re.IGNORECASE,
)


@attrs.frozen
class Classification:
    """The verdict class of one failed happy-path call, and what it lacked if anything."""

    category: str  # "defect" | "rejected-input" | "environment"
    #: ``network``/``credentials``/``rate-limit``/``binary`` for environment; ``setup`` when
    #: the server blamed missing state; ``None`` otherwise.
    needs: str | None = None
    reason: str = ""

    @property
    def conclusive(self) -> bool:
        return self.category == "defect"


def environment_need(text: str) -> str | None:
    """What the machine lacked, judging by the error text: or None."""
    if _RATE_LIMIT.search(text):
        return "rate-limit"
    if _CREDENTIALS.search(text):
        return "credentials"
    if _NETWORK.search(text):
        return "network"
    if _BINARY.search(text):
        return "binary"
    return None


#: A credential named on a stderr line: an ``..._API_KEY``-style variable, or the words.
_CREDENTIAL_NAME = lazy_pattern(
    r"\b[A-Z][A-Z0-9]*_(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)\b"
    r"|api[ _-]?key|access[ _-]?token|auth[ _-]?token|credentials?\b",
    re.IGNORECASE,
)
#: ... said to be absent.
_ABSENT = lazy_pattern(
    r"\bno\b|not (?:set|found|provided|configured|defined)|missing|\bunset\b|is empty"
    r"|\brequired\b|\bwithout\b|keyless",
    re.IGNORECASE,
)


def missing_credential_line(stderr: str) -> str:
    """The first line of a server's stderr that says a credential is missing, or ``""``.

    Servers often say so once, when they start ("no SEARCH_API_KEY set; running in keyless
    mode"), and then fail each call with whatever comes first, often a network error
    offline. The line tells the reader what else the tools will need.
    """
    for line in stderr.splitlines():
        if _CREDENTIAL_NAME.search(line) and _ABSENT.search(line):
            return line.strip()
    return ""


def policy_fix(text: str) -> str | None:
    """If ``text`` refuses a call by the server's policy or a start option, the fix to quote
    ("start the server with --allow-private-ips", or the refusal itself); else None."""
    option = _START_OPTION.search(text)
    if option is not None:
        return f"start the server with {option.group('fix').rstrip('.,;:')}"
    match = _POLICY.search(text)
    if match is None:
        return None
    start = max(0, match.start() - 80)
    quoted = " ".join(text[start : match.end() + 80].split())
    return f"the server's policy refused it ({quoted}); allow it in the server's configuration"


def defect_whatever_the_state(text: str, evidence: Mapping[str, str], blamed: str | None) -> bool:
    """A failure that no missing state explains: the server's code uses what a module lacks,
    or it did not find the argument ``blamed``, a line of the fresh file it was given
    (evidence :data:`~toolscore_mcp.model.SANDBOX_TEXT`)."""
    if _MODULE_LACKS.search(text):
        return True
    return blamed is not None and evidence.get(blamed) == SANDBOX_TEXT and bool(_STATE.search(text))


def looks_like_internal_error(text: str) -> bool:
    """An internal error, a traceback or a runtime exception's name."""
    return bool(_INTERNAL.search(text))


def _gives_no_reason(text: str) -> bool:
    stripped = text.strip()
    if _CJK_SENTENCE.search(stripped):
        return False  # a reason in Chinese or Japanese; the word lists are English
    return not stripped or bool(_BARE.match(stripped)) or not _REASON_WORDS.search(stripped)


_CJK_SENTENCE = lazy_pattern(r"[\u3040-\u30ff\u4e00-\u9fff]{4,}")


def classify_failure(
    text: str,
    evidence: Mapping[str, str],
    *,
    blamed: str | None = None,
    blamed_by_name_only: bool = False,
    rpc_error_code: int | None = None,
    schema_error: bool = False,
) -> Classification:
    """Classify a failed happy-path answer.

    ``text`` is what the server said; ``evidence`` maps each argument we sent to where its
    value came from (see :data:`CERTAIN_SOURCES`); ``blamed`` is the argument the message
    names, if any (``blamed_by_name_only``: it merely names the parameter, which is no
    objection by itself); ``schema_error`` says our own arguments broke the tool's input
    schema.
    """
    if schema_error:
        return Classification("rejected-input", reason="our arguments break the input schema")
    if _MODULE_LACKS.search(text):
        return Classification("defect", reason="its code uses what a module it imports lacks")
    need = environment_need(text)
    if need is not None:
        return Classification("environment", need, f"needs {need}")
    if says_unfinished(text):
        return Classification("defect", reason="the tool says it is not implemented")
    if _gives_no_reason(text):
        return Classification("defect", reason="refused input without giving a reason")
    if defect_whatever_the_state(text, evidence, blamed):
        return Classification(
            "defect", reason=f"did not find {blamed!r}, text the file it was given holds"
        )
    if blamed is not None and blamed in evidence:
        suspects = [evidence[blamed]]
    else:
        suspects = list(evidence.values())
    guessed = any(source not in CERTAIN_SOURCES for source in suspects)
    if _STATE.search(text):
        return Classification("rejected-input", "setup", "the server lacks the state it needs")
    if looks_like_internal_error(text):
        if _SUCCESS_CLAIMED.search(text):
            # It took our input and said it succeeded, then failed inside: its own bug.
            return Classification("defect", reason="an internal error inside a success answer")
        if guessed:
            return Classification(
                "rejected-input", reason="internal error on an argument we guessed"
            )
        return Classification("defect", reason="internal error on valid input")
    blames_input = (
        (blamed is not None and not blamed_by_name_only)
        or rpc_error_code == -32602
        or bool(_BLAMES_INPUT.search(text))
    )
    if not blames_input:
        return Classification("defect", reason="failed without objecting to the input")
    if blamed is not None and evidence.get(blamed) in VOUCHED_SOURCES:
        return Classification(
            "defect", reason=f"refused {blamed!r}, a value its schema vouches for"
        )
    if blamed is not None:
        # A refusal that names the argument gives a reason: our value, or a schema that
        # does not say what the tool accepts (a lint-style finding, not a broken tool).
        return Classification("rejected-input", reason=f"the server rejected {blamed!r}")
    if guessed:
        return Classification("rejected-input", reason="the server rejected a value we guessed")
    return Classification("defect", reason="refused input its own schema vouches for")
