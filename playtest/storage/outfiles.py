"""Files the commands write (``--out``): checked before any work, written all or nothing.

The rules, for ``playtest export`` and ``playtest report``:

- an existing file is replaced only with ``--force``;
- a relative path stays inside the current folder: ``../plan.md`` (or a symlink out of
  it) is refused, because a path that climbs out is more often a slip of a copied command
  than a wish; an absolute path is taken as meant and may point anywhere;
- the folder must exist (nothing creates folders that a failure would leave behind);
- every file of one command is written to a hidden temporary file next to its target and
  renamed into place only when all of them are complete. A failure removes the
  temporaries and any target already put in place that did not exist before, so nothing
  of a failed command is left (no ``.part`` files, no ``.md`` without its ``.html``);
- the files are readable by their owner only (they hold tester data; ``chmod`` to share).

>>> import os, tempfile
>>> here = os.getcwd(); os.chdir(tempfile.mkdtemp())
>>> checked_out_path("../plan.md", force=False)
Traceback (most recent call last):
...
playtest.storage.outfiles.OutputRefused: --out ../plan.md: outside the current folder (give an absolute path to write there)
>>> with written_together([checked_out_path("a.md", force=False)]) as (tmp,):
...     _ = tmp.write_text("# plan")
>>> sorted(os.listdir())
['a.md']
>>> checked_out_path("a.md", force=False)
Traceback (most recent call last):
...
playtest.storage.outfiles.OutputRefused: --out a.md: the file exists (add --force to replace it)
>>> os.chdir(here)
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from playtest.storage.errors import StorageError


class OutputRefused(StorageError):
    """An output path the command will not write (the message says why)."""


def checked_out_path(text: str | Path, *, force: bool, option: str = "--out") -> Path:
    """``text`` as a path the command may write, or :class:`OutputRefused` naming why."""
    path = Path(text)
    shown = f"{option} {text}"
    if not str(text).strip():
        raise OutputRefused(f"{option}: give a file name")
    if not path.is_absolute():
        here = Path.cwd().resolve()
        if not (here / path).resolve().is_relative_to(here):
            raise OutputRefused(
                f"{shown}: outside the current folder (give an absolute path to write there)"
            )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputRefused(f"{shown}: there is no folder {folder} (create it first)")
    if path.is_dir():
        raise OutputRefused(f"{shown}: is a folder, not a file")
    if (path.exists() or path.is_symlink()) and not force:
        raise OutputRefused(f"{shown}: the file exists (add --force to replace it)")
    if not os.access(folder, os.W_OK):
        raise OutputRefused(f"{shown}: the folder {folder} is not writable")
    return path


@contextlib.contextmanager
def written_together(targets: Sequence[Path]) -> Iterator[list[Path]]:
    """Temporary paths to write ``targets`` to; all renamed into place at the end, or none.

    Two targets that are the same file are refused (the second would replace the first).
    """
    resolved = [t.resolve() for t in targets]
    if len(set(resolved)) != len(resolved):
        raise OutputRefused("two outputs name the same file: " + ", ".join(map(str, targets)))
    temporaries: list[Path] = []
    placed: list[Path] = []
    existed = [t.exists() for t in targets]
    try:
        for target in targets:
            handle, name = tempfile.mkstemp(
                dir=target.parent if str(target.parent) else ".",
                prefix=f".{target.name}.", suffix=".part",
            )
            os.close(handle)
            temporaries.append(Path(name))
        yield list(temporaries)
        for temporary, target in zip(temporaries, targets, strict=True):
            temporary.replace(target)
            placed.append(target)
    except BaseException:
        for temporary in temporaries:
            temporary.unlink(missing_ok=True)
        for target, was_there in zip(targets, existed, strict=False):
            if target in placed and not was_there:
                target.unlink(missing_ok=True)
        raise


__all__ = ["OutputRefused", "checked_out_path", "written_together"]
