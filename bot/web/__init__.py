"""The web front: a live table in the browser (and inside Discord as an Activity)."""
