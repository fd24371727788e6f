"""The time-track rules family: classic, classic-revised, Christmas, anniversary (with Automa),
Express and their variants. The compiled rules live in `kernel`, the edition tables in `tables`."""
