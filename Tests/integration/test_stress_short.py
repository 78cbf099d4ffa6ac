"""The flood scenarios of Tests/stress/flood.py in their short form: every probe reply correct, fds back to the
baseline, the daemon alive. The long runs (1,000 connections, 100,000 churn cycles) are `flood.py` without --short."""
import io
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "stress"))
import flood  # noqa: E402


@pytest.fixture(scope="module")
def results():
    out = io.StringIO()
    results = flood.run(short=True, out=out)
    print(out.getvalue())
    return {r["scenario"]: r for r in results}


@pytest.mark.parametrize("scenario", ["concurrent", "silent", "slow", "noread", "churn", "mixed"])
def test_a_flood_leaves_the_daemon_answering_with_no_leaked_fds(results, scenario):
    r = results[scenario]
    assert r["alive"], r
    assert r["probe_errors"] == 0, r["first_probe_error"]
    assert r["probe_ok"] > 0, r
    assert r["fds_after"] <= r["fds_before"], r
    assert r["ok"], r["detail"]
