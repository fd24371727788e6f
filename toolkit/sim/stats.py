"""The statistics primitives now live in toolkit.stats (the rules families use them too); this
name stays for scripts that import it."""
from toolkit.stats import (Z95, Interval, PairedDifference, Tally, hist_summary, mean_interval,  # noqa: F401
                           merge_all, paired_difference, wilson)
