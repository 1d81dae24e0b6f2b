"""Which folders Codex treats as the project: the git root, the main repository of a worktree,
and every ``.codex/`` folder from the git root down to the working directory.

Observed with 0.171.0 (``tests/clis/experiments/x_codex.py`` A_, ``x_codex_round2.py`` A_):

- Inside a git repository Codex reads ``.codex/config.toml`` of every folder from the git root
  down to the cwd (the one nearest the cwd wins a key set twice).
- Each such folder is trusted when a ``[projects."<path>"] trust_level = "trusted"`` entry names
  it or a folder above it up to the git root, or the main repository of a worktree. A trust entry
  for the cwd alone does not make a ``.codex/`` above it trusted; an entry above the git root
  does not count.
- In a worktree (``.git`` is a file ``gitdir: …``) the main repository is the folder above the
  ``commondir`` its git folder names.
- Without git: only the cwd's ``.codex/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MAX_PARENTS = 64
MAX_GIT_FILE = 4096
"""A ``.git`` or ``commondir`` file longer than this is not git's: the worktree is not followed."""


@dataclass(frozen=True)
class ProjectFolders:
    """The cwd, the git root above it (None without git), and the main repository (a worktree's, else the root)."""

    cwd: Path
    root: Path | None
    main: Path | None

    @property
    def worktree(self) -> bool:
        """The cwd is in a git worktree (its root is not the main repository)."""
        return self.root is not None and self.main is not None and self.main != self.root

    def codex_dirs(self) -> list[Path]:
        """Folders whose ``.codex/config.toml`` Codex reads, the git root first, the cwd last."""
        if self.root is None:
            return [self.cwd]
        below = [self.cwd, *self.cwd.parents]
        return list(reversed(below[: below.index(self.root) + 1]))

    def trust_keys(self, folder: Path) -> list[Path]:
        """The ``[projects."<path>"]`` entries that make ``folder``'s ``.codex/`` trusted, nearest first."""
        if self.root is None:
            return [folder]
        chain = [folder, *folder.parents]
        keys = chain[: chain.index(self.root) + 1] if self.root in chain else [folder]
        return list(dict.fromkeys([*keys, *([self.main] if self.main else [])]))

    @property
    def trust_target(self) -> Path:
        """The one folder to trust so that every ``.codex/`` here is read: the main repository, else the cwd."""
        return self.main or self.cwd


def _small_text(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_GIT_FILE + 1)
    except OSError:
        return None
    return None if len(data) > MAX_GIT_FILE else data.decode("utf-8", "replace").strip()


def main_repository(root: Path) -> Path:
    """The main repository of the git checkout at ``root``: ``root`` itself unless ``.git`` is a worktree's file."""
    dot_git = root / ".git"
    if not dot_git.is_file():
        return root
    text = _small_text(dot_git)
    if not text or not text.startswith("gitdir:"):
        return root
    gitdir = (root / text.removeprefix("gitdir:").strip()).resolve()
    common = _small_text(gitdir / "commondir")
    if not common:
        return root
    common_dir = (gitdir / common).resolve()
    return common_dir.parent if common_dir.name == ".git" else root


def project_folders(cwd: Path) -> ProjectFolders:
    """The git root at or above ``cwd`` (bounded walk) and its main repository."""
    for candidate in [cwd, *cwd.parents][:MAX_PARENTS]:
        if (candidate / ".git").exists():
            return ProjectFolders(cwd, candidate, main_repository(candidate))
    return ProjectFolders(cwd, None, None)
