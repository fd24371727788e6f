"""patchwork-toolkit: specs, print kits, rules engines, bots and balance simulation for Patchwork."""

__version__ = "0.1.0"


def source_commit() -> str | None:
    """The git commit this code is, when it can be known: the checkout the package runs from (an
    editable install or `python -m toolkit` in a clone), or the commit pip recorded when it
    installed the toolkit from a git URL, or the commit setup.py recorded in BUILD_COMMIT when it
    built the package from a clone (`pip install .`). A copy built from a plain folder does not know."""
    import json
    import subprocess
    from importlib import metadata
    from pathlib import Path

    checkout = Path(__file__).resolve().parent.parent
    if (checkout / ".git").exists():
        try:
            done = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short=12", "HEAD"],
                                  capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.SubprocessError):
            done = None
        if done is not None and done.returncode == 0 and done.stdout.strip():
            return done.stdout.strip()
    try:
        built = (Path(__file__).resolve().parent / "BUILD_COMMIT").read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        built = ""
    if len(built) >= 7 and all(c in "0123456789abcdef" for c in built):
        return built[:12]
    try:
        text = metadata.distribution("patchwork-toolkit").read_text("direct_url.json")
        commit = json.loads(text or "{}").get("vcs_info", {}).get("commit_id")
    except (metadata.PackageNotFoundError, ValueError, OSError, AttributeError):
        return None
    return commit[:12] if isinstance(commit, str) and commit else None
