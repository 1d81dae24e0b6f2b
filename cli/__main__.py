"""``python -m toolscope``."""

from toolscope.app import main

if __name__ == "__main__":
    main()
