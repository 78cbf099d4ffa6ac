"""The documents' references hold: every relative link of README.md and docs/*.md names a file that exists and, with
an anchor, a heading of that file; every "design.md §n" in the repository names a section of docs/design.md."""
import glob
import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCUMENTS = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
DESIGN = os.path.join(ROOT, "docs", "design.md")

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose(text):
    """The text outside fenced blocks and inline code, where Markdown reads links."""
    text = re.sub(r"^```.*?^```[ \t]*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation other than '-' and '_' dropped, spaces as '-'."""
    text = re.sub(r"`", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings (outside fenced blocks), duplicates numbered as GitHub does."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"^```.*?^```[ \t]*$", "", f.read(), flags=re.S | re.M)
    seen, result = {}, set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, flags=re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        result.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return result


def links(document):
    with open(os.path.join(ROOT, document), encoding="utf-8") as f:
        return [target for target in LINK.findall(prose(f.read())) if not SCHEME.match(target)]


def test_the_documents_are_found():
    assert {"README.md", "docs/design.md", "docs/benchmarks.md", "docs/config-language.md"} <= set(DOCUMENTS)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_relative_link_resolves(document):
    assert links(document) or document != "README.md", "no links found in README.md: is the link pattern broken?"
    broken = []
    for target in links(document):
        path, _, anchor = target.partition("#")
        file = os.path.normpath(os.path.join(ROOT, os.path.dirname(document), path)) if path else \
            os.path.join(ROOT, document)
        if not file.startswith(ROOT + os.sep) or not os.path.exists(file):
            broken.append(f"{target}: no such file")
        elif anchor and (not file.endswith(".md") or anchor not in anchors(file)):
            broken.append(f"{target}: no heading with the anchor #{anchor}")
    assert not broken, f"{document}: " + "; ".join(broken)


def test_the_anchor_rule_is_githubs():
    assert slug("3. Routing decision (contract)") == "3-routing-decision-contract"
    assert slug("Gates: `requires` and `provides`") == "gates-requires-and-provides"
    assert slug("4. Wire protocol: the varlink interface (contract)") == "4-wire-protocol-the-varlink-interface-contract"


def tracked_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name]


def test_every_design_section_cited_exists():
    sections = set(re.findall(r"^## (\d+)\. ", open(DESIGN, encoding="utf-8").read(), flags=re.M))
    assert {"1", "3", "4", "6", "7"} <= sections
    wrong, cited = [], 0
    for name in tracked_files():
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for number in re.findall(r"design\.md §(\d+)", text):
            cited += 1
            if number not in sections:
                wrong.append(f"{name}: design.md §{number}")
        # The original contract lived outside the repository; docs/design.md is its successor.
        if re.search(r"\bDESIGN(\.md)? §", text) or "shapes" + ".md" in text:
            wrong.append(f"{name}: cites a document that is not in the repository")
    assert cited > 5
    assert not wrong, wrong
