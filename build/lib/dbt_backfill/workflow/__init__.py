"""One verb per module: plan, approve, apply, verify. No printing here: results go back to the caller."""
