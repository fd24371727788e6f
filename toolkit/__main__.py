"""`python -m toolkit` runs the same CLI as the `patchwork` console script."""
from toolkit.cli.app import main

if __name__ == "__main__":
    main()
