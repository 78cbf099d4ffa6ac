"""README.md's examples, run: every console block against a live notifyd on config/shop.yaml, compared line by line.

The commands run as the README writes them, in its order, from a work directory laid out like the repository's:
`.build/debug` is the build under test, `config` and `examples` are the repository's, `.run/notifyd.sock` is the
daemon's socket (NOTIFYD_SOCKET, as the tour says to export), and `shop.yaml` is the broken copy of
config/shop.yaml that the README describes. What may differ between a run and the README (ids, times, elided
lines) is set out in readme_blocks.py; nothing else may.
"""
import os
import subprocess

import pytest

import readme_blocks
from conftest import BIN, SHOP, Daemon

# The broken copy, as the README describes it, and the two edits that make it.
BROKEN_COPY = "with `kind` misspelt in `cart` and `/promo/{code}` for `/promo/{id}`"
BROKEN_EDITS = [
    ("  cart:\n    kind: stack\n", "  cart:\n    kinds: stack\n"),
    ('"offer(id: String)": ["/offers/{id}", "/promo/{id}"]', '"offer(id: String)": ["/offers/{id}", "/promo/{code}"]'),
]


def broken_copy():
    with open(SHOP) as f:
        text = f.read()
    for old, new in BROKEN_EDITS:
        assert text.count(old) == 1, f"config/shop.yaml no longer holds {old!r} once: update the README's broken copy"
        text = text.replace(old, new)
    return text


@pytest.fixture
def tour(workdir):
    """A work directory laid out as above, with the daemon listening on .run/notifyd.sock; stopped afterwards."""
    os.makedirs(os.path.join(workdir, ".build"))
    os.symlink(os.path.abspath(BIN), os.path.join(workdir, ".build", "debug"))
    for name in ("config", "examples"):
        os.symlink(os.path.join(readme_blocks.ROOT, name), os.path.join(workdir, name))
    with open(os.path.join(workdir, "shop.yaml"), "w") as f:
        f.write(broken_copy())
    daemon = Daemon(workdir)
    os.makedirs(os.path.join(workdir, ".run"))
    daemon.socket = os.path.join(workdir, ".run", "notifyd.sock")
    daemon.start()
    yield workdir
    daemon.stop()


def run(command, cwd):
    """A README command in `cwd` under bash, as a user's shell runs it; standard output and error together."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    env["NOTIFYD_SOCKET"] = ".run/notifyd.sock"
    env["PATH"] = os.path.abspath(BIN) + os.pathsep + env.get("PATH", "")
    result = subprocess.run(["bash", "-c", "set -o pipefail\n" + command], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=120)
    return readme_blocks.output_lines(result.stdout + result.stderr)


def test_the_readme_describes_the_broken_copy_the_test_makes():
    with open(readme_blocks.README) as f:
        assert BROKEN_COPY in " ".join(f.read().split())


def test_every_console_block_of_the_readme_prints_what_it_shows(tour):
    ran = 0
    for block in readme_blocks.blocks():
        if block.mark and block.mark.startswith("excerpt of "):
            path = block.mark[len("excerpt of "):]
            with open(os.path.join(tour, path)) as f:
                actual = readme_blocks.output_lines(f.read())
            assert readme_blocks.matches(block.lines, actual, excerpt=True), (
                f"README.md:{block.line}: not an excerpt of {path}\n"
                + readme_blocks.difference(block.lines, actual, f"line {block.line}"))
            continue
        if block.language != "console":
            continue
        if block.mark and block.mark.startswith(readme_blocks.E2E_MARK):
            continue
        assert block.mark is None, f"README.md:{block.line}: unknown mark {block.mark!r}"
        for command, expected in block.commands():
            actual = run(command, tour)
            assert readme_blocks.matches(expected, actual), (
                f"README.md:{block.line}: $ {command}\n"
                + readme_blocks.difference(expected, actual, f"line {block.line}"))
            ran += 1
    assert ran >= 10, f"only {ran} README commands ran"


def test_the_blocks_left_to_the_end_to_end_test_are_run_there():
    marked = [b for b in readme_blocks.blocks() if b.mark and b.mark.startswith(readme_blocks.E2E_MARK)]
    assert marked, "the journal example is expected to be marked for the end-to-end test"
    with open(os.path.join(readme_blocks.ROOT, "Tests", "e2e", "run.sh")) as f:
        assert "readme_blocks.py\" run-e2e" in f.read()


@pytest.mark.parametrize("expected, actual, fits", [
    (["a", "…", "d"], ["a", "b", "c", "d"], True),
    (["a", "…", "d"], ["a", "d"], True),
    (["a", "…", "d"], ["a", "b", "c"], False),
    (["a", "b"], ["a", "b", "c"], False),
    (["└─ decision  01a22f9d-f8d1-7380-836e-ed2e98fa5d21 · no device · 2026-12-01T03:20:11.729Z"],
     ["└─ decision  01a241e6-0dd8-71de-80fd-f394b69c877c · no device · 2026-12-04T16:32:05.592Z"], True),
    # Only version-7 ids and times with milliseconds are masked: anything else around them must be equal.
    (["└─ decision  01a22f9d-f8d1-7380-836e-ed2e98fa5d21 · no device"],
     ["└─ decision  01a22f9d-f8d1-7380-836e-ed2e98fa5d21 · device x"], False),
    (["id 01a22f9d-f8d1-4380-836e-ed2e98fa5d21"], ["id 01a22f9d-f8d1-4380-836e-ed2e98fa5d22"], False),
    (["at 2026-12-01T03:20:11Z"], ["at 2026-12-01T03:20:12Z"], False),
    (["shop.yaml:113:5: error"], ["shop.yaml:110:5: error"], False),
])
def test_the_comparison_masks_ids_times_and_elisions_only(expected, actual, fits):
    assert readme_blocks.matches(expected, actual) is fits
