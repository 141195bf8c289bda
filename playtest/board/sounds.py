"""Sound cues, synthesised from one table that drives both players.

The table is the shared cues in `cues.json` (beside this module) plus each game's own
cues in `playtest/games/<game>/sounds.json` (a fanfare only one game has). A game's board
front end plays a cue with WebAudio oscillators from the notes its view data carries
(`cue_spec()[name]`), and `wav_bytes` renders the same notes to 16-bit mono WAV with
numpy, for tests and as an `st.audio` fallback. No audio files are shipped.

>>> sorted(CUES) == sorted(CUE_NAMES)
True
>>> data = wav_bytes("place")
>>> data[:4], len(data) > 1000
(b'RIFF', True)
"""

from __future__ import annotations

import io
import json
import wave
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

SAMPLE_RATE: Final = 22050
ATTACK_S: Final = 0.006


@dataclass(frozen=True)
class Note:
    """One voice of a cue: starts at `at` seconds, glides `f0` -> `f1` Hz over `dur`.

    wave: "sine" | "triangle" | "square" | "sawtooth" | "noise" (noise ignores f0/f1).
    The envelope is a 6 ms attack then an exponential-style decay to silence at `dur`.
    """

    at: float
    dur: float
    wave: str
    f0: float
    f1: float
    gain: float


CUES_FILE: Final = Path(__file__).resolve().parent / "cues.json"
#: Each game's own cues: ``playtest/games/<game>/sounds.json``, same shape as CUES_FILE.
GAME_CUES_GLOB: Final = "*/sounds.json"
GAMES_DIR: Final = Path(__file__).resolve().parents[1] / "games"


def _load_cues(path: Path = CUES_FILE) -> dict[str, tuple[Note, ...]]:
    """The cue table of one file: ``{name: {"about": ..., "notes": [[at, dur, wave, f0,
    f1, gain], ...]}}``."""
    table = json.loads(path.read_text(encoding="utf-8"))
    return {
        name: tuple(
            Note(float(at), float(dur), str(wave), float(f0), float(f1), float(gain))
            for at, dur, wave, f0, f1, gain in entry["notes"]
        )
        for name, entry in table.items()
    }


def cue_files() -> tuple[Path, ...]:
    """The shared table first, then every game's own, in folder order."""
    return (CUES_FILE, *sorted(GAMES_DIR.glob(GAME_CUES_GLOB)))


def _all_cues() -> dict[str, tuple[Note, ...]]:
    cues: dict[str, tuple[Note, ...]] = {}
    for path in cue_files():
        table = _load_cues(path)
        twice = sorted(set(table) & set(cues))
        if twice:
            raise ValueError(f"{path}: sound cues {twice} are defined twice")
        cues.update(table)
    return cues


# Event classes from the seed's "Audio and Visual Feedback" list, plus "miss" (the comment
# thread asks for a "silly / disappointing noise" when a player misses a turn); what each
# sounds like is its "about" in its file.
CUES: Final[dict[str, tuple[Note, ...]]] = _all_cues()
CUE_NAMES: Final[tuple[str, ...]] = tuple(CUES)


class UnknownCueError(KeyError):
    """A sound cue name that is not in `CUES`."""


def cue_spec() -> dict[str, list[dict[str, float | str]]]:
    """The table as JSON-ready dicts (what the component's JavaScript plays)."""
    return {name: [asdict(n) for n in notes] for name, notes in CUES.items()}


# Built once: `CUES` is fixed at import, and rebuilding every cue with `asdict` on each
# rerun was 4 of a board rerun's ~30 profiled ms.
_CUE_SPEC: Final[dict[str, list[dict[str, float | str]]]] = cue_spec()


def cue_notes(name: str) -> list[dict[str, float | str]] | None:
    """One cue's notes as JSON-ready dicts (fresh copies each call), or None if unknown.

    >>> cue_notes("no-such-cue") is None
    True
    >>> cue_notes(CUE_NAMES[0]) == cue_spec()[CUE_NAMES[0]]
    True
    >>> cue_notes(CUE_NAMES[0]) is not cue_notes(CUE_NAMES[0])
    True
    """
    notes = _CUE_SPEC.get(name)
    return None if notes is None else [dict(note) for note in notes]


def cue_duration(name: str) -> float:
    """Length of a cue in seconds (end of its last note)."""
    return max(n.at + n.dur for n in _notes(name))


def _notes(name: str) -> tuple[Note, ...]:
    try:
        return CUES[name]
    except KeyError:
        raise UnknownCueError(
            f"unknown sound cue {name!r}; known: {', '.join(CUE_NAMES)}"
        ) from None


def _voice(note: Note, rate: int, rng: np.random.Generator) -> npt.NDArray[np.float64]:
    n = max(1, int(round(note.dur * rate)))
    t = np.arange(n) / rate
    if note.wave == "noise":
        sig = rng.uniform(-1.0, 1.0, n)
    else:
        # linear glide: integrate the instantaneous frequency for a click-free sweep
        freq = note.f0 + (note.f1 - note.f0) * (t / note.dur)
        phase = 2 * np.pi * np.cumsum(freq) / rate
        cyc = (phase / (2 * np.pi)) % 1.0
        if note.wave == "sine":
            sig = np.sin(phase)
        elif note.wave == "square":
            sig = np.where(cyc < 0.5, 1.0, -1.0)
        elif note.wave == "sawtooth":
            sig = 2.0 * cyc - 1.0
        elif note.wave == "triangle":
            sig = 4.0 * np.abs(cyc - 0.5) - 1.0
        else:
            raise ValueError(f"unknown wave {note.wave!r}")
    attack = np.clip(t / ATTACK_S, 0.0, 1.0)
    decay = np.power(np.clip(1.0 - t / note.dur, 0.0, 1.0), 2.0)
    return np.asarray(sig * attack * decay * note.gain, dtype=np.float64)


def synthesize(name: str, rate: int = SAMPLE_RATE) -> npt.NDArray[np.float64]:
    """The cue as float samples in [-1, 1] (mono).

    The noise voices use a fixed seed, so the same cue always gives the same samples.
    """
    notes = _notes(name)
    out = np.zeros(int(round(cue_duration(name) * rate)) + 1)
    rng = np.random.default_rng(20250901)
    for note in notes:
        v = _voice(note, rate, rng)
        start = int(round(note.at * rate))
        out[start : start + len(v)] += v[: len(out) - start]
    peak = float(np.max(np.abs(out)))
    if peak > 0.98:
        out *= 0.98 / peak
    return out


def wav_bytes(name: str, *, nonce: int = 0, rate: int = SAMPLE_RATE) -> bytes:
    """The cue as a WAV file. `nonce` appends that many silent samples (mod 997).

    Streamlit's `st.audio(..., autoplay=True)` does not replay identical bytes on two
    consecutive reruns (streamlit-notes.md); a different nonce per play makes them differ.
    """
    samples = synthesize(name, rate)
    pad = np.zeros(nonce % 997)
    pcm = (np.concatenate([samples, pad]) * 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()
