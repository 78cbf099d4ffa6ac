"""The README's examples as tests read and run them.

A console block is a fenced block tagged `console`. In it, a line that starts with "$ " is a command (a line ending in
a backslash continues on the next one); the lines after it, up to the next command, are what it prints (standard
output and standard error together, as a terminal shows them); blank lines before the next command only separate
the two. An HTML comment on the line before a block says how
it is checked when it is not run by Tests/integration/test_readme_examples.py:
  <!-- checked by Tests/e2e/run.sh: REASON -->   a console block that needs what only the end-to-end test has
  <!-- excerpt of PATH -->                       a block that is an excerpt of a file an earlier command wrote

Output is compared with a block by these rules and no others:
  1. a line that is exactly "…" in the block stands for any number of lines, none included; in an excerpt, so does
     a line that starts with "// …", and the excerpt may start and end anywhere in the file;
  2. a version-7 UUID (a decision id) matches any version-7 UUID;
  3. an RFC 3339 UTC time with milliseconds (a decision's time, a pending page's expiry) matches any such time.
Every other character must be equal.

Run as a script, it checks the blocks marked for the end-to-end test:
  python3 readme_blocks.py run-e2e [PREFIX...]   runs each command with `PREFIX... bash -c COMMAND`, retrying for up
                                                 to 10 s while the output differs (the journal is written after the
                                                 reply); exits 1 with a diff when it still differs.
"""
import difflib
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
README = os.path.join(ROOT, "README.md")
E2E_MARK = "checked by Tests/e2e/run.sh"

UUID7 = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b")
TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b")
ELLIPSIS = "…"


class Block:
    """A fenced block: its language, its lines, the comment on the line before it, and where it starts."""

    def __init__(self, language, lines, mark, line):
        self.language, self.lines, self.mark, self.line = language, lines, mark, line

    def commands(self):
        """[(command, expected lines)] of a console block."""
        result, command, expected, continued = [], None, [], False
        for text in self.lines:
            if continued:
                command += "\n" + text
                continued = text.endswith("\\")
            elif text.startswith("$ "):
                if command is not None:
                    result.append((command, expected))
                command, expected = text[2:], []
                continued = text.endswith("\\")
            elif command is None:
                raise ValueError(f"README.md:{self.line}: console block does not start with a command: {text!r}")
            else:
                expected.append(text)
        if command is not None:
            result.append((command, expected))
        # Blank lines before the next command only separate the two.
        return [(command, _without_trailing_blanks(expected)) for command, expected in result]


def _without_trailing_blanks(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def blocks(path=README):
    """Every fenced block of a Markdown file, in order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, i = [], 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        previous = lines[i - 1].strip() if i > 0 else ""
        mark = previous[4:-3].strip() if previous.startswith("<!--") and previous.endswith("-->") else None
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{i + 1}: fenced block never closed")
        found.append(Block(fence.group(1), lines[i + 1:end], mark, i + 1))
        i = end + 1
    return found


def mask(line):
    """Rules 2 and 3: ids and times replaced by placeholders, in the output and in the block alike."""
    return TIME.sub("<time>", UUID7.sub("<uuid7>", line))


def _is_elision(line, excerpt):
    return line == ELLIPSIS or (excerpt and line.lstrip().startswith("// " + ELLIPSIS))


def matches(expected, actual, excerpt=False):
    """True when the lines `actual` fit the lines `expected` by the rules above."""
    expected = [mask(line) for line in expected]
    actual = [mask(line) for line in actual]
    if excerpt:
        expected = [ELLIPSIS] + expected + [ELLIPSIS]
    memo = {}

    def fit(i, j):
        if (i, j) not in memo:
            if i == len(expected):
                memo[(i, j)] = j == len(actual)
            elif _is_elision(expected[i], excerpt):
                memo[(i, j)] = any(fit(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                memo[(i, j)] = j < len(actual) and expected[i] == actual[j] and fit(i + 1, j + 1)
        return memo[(i, j)]

    return fit(0, 0)


def difference(expected, actual, label):
    """A unified diff of the block against the output, both masked, for a failure's message."""
    lines = difflib.unified_diff(
        [mask(line) for line in expected], [mask(line) for line in actual],
        f"README.md ({label})", "actual output (masked)", lineterm="")
    return "\n".join(lines)


def output_lines(text):
    """The lines a command printed, without the newline after the last one."""
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n") if text else []


def run_e2e(prefix):
    """Runs the commands of the blocks marked for the end-to-end test; returns the exit status."""
    marked = [b for b in blocks() if b.language == "console" and b.mark and b.mark.startswith(E2E_MARK)]
    if not marked:
        print(f"readme_blocks: no console block of README.md is marked '{E2E_MARK}'", file=sys.stderr)
        return 1
    for block in marked:
        for command, expected in block.commands():
            deadline = time.monotonic() + 10
            while True:
                result = subprocess.run(prefix + ["bash", "-c", "set -o pipefail\n" + command], capture_output=True,
                                        text=True, timeout=60)
                actual = output_lines(result.stdout + result.stderr)
                if matches(expected, actual) or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            if not matches(expected, actual):
                print(f"README.md:{block.line}: $ {command}\n" + difference(expected, actual, f"line {block.line}"),
                      file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "run-e2e":
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(run_e2e(sys.argv[2:]))
