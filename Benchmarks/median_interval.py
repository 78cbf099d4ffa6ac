"""A distribution-free interval for a median, for the benchmark scripts' summaries.

The host's speed moves by a tenth from one run to the next, so a median of a dozen runs moves too: the interval says
how far. It is the sign test's: with n values, the k-th lowest and the k-th highest hold the median of what they were
drawn from with probability 1 - 2 P(Bin(n, 1/2) <= k - 1), whatever that distribution is.
"""
import statistics
from math import comb


def median_interval(values, confidence=0.95):
    """(low, high, coverage): the widest-k order statistics around the median of `values` with at least
    `confidence` coverage, and the coverage they give; None when there are too few values for one (fewer than 6 for
    95%)."""
    ordered = sorted(values)
    n = len(ordered)
    tail = (1 - confidence) / 2
    k, below = 0, 0.0  # below: P(Bin(n, 1/2) <= k - 1)
    while k < n:
        through = below + comb(n, k) / 2**n  # P(Bin(n, 1/2) <= k)
        if through > tail:
            break
        below, k = through, k + 1
    if k == 0:
        return None
    return ordered[k - 1], ordered[n - k], 1 - 2 * below


def side_of(interval, reference):
    """Where an interval from `median_interval` lies against `reference`: "above" when its low end is above it,
    "below" when its high end is below it, "holds" when it holds it (the runs do not tell the median from it)."""
    low, high = interval[0], interval[1]
    return "above" if low > reference else "below" if high < reference else "holds"


def judged(ratios, target, higher_is_better=True):
    """The verdict on per-round ratios against a target: (median, interval, verdict).

    Each ratio pairs a round's notifyd run with the floor's run just before it, so the host's drift over the rounds
    touches both sides of each ratio alike. The verdict is "met" or "MISSED" when the interval lies on one side of
    the target, and "not told apart from the target" when it holds it; with too few rounds for an interval, the
    median alone decides, as "met" or "MISSED"."""
    median = statistics.median(ratios)
    interval = median_interval(ratios)
    if interval is not None and side_of(interval, target) == "holds":
        return median, interval, "not told apart from the target"
    # An interval clear of the target lies on the median's side of it.
    good = median >= target if higher_is_better else median <= target
    return median, interval, "met" if good else "MISSED"
