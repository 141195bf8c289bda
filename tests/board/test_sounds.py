"""Synthesised sound cues: audible, the right length, and distinguishable."""

from __future__ import annotations

import io
import wave

import numpy as np
import pytest

from playtest.board.sounds import (
    CUE_NAMES,
    SAMPLE_RATE,
    UnknownCueError,
    cue_duration,
    cue_spec,
    synthesize,
    wav_bytes,
)

SEED_EVENTS = {"roll", "place", "capture", "square", "blocked", "wrong", "vapoosh", "winner"}


def test_every_event_class_of_the_seed_has_a_cue() -> None:
    assert set(CUE_NAMES) >= SEED_EVENTS
    assert set(cue_spec()) == set(CUE_NAMES)


@pytest.mark.parametrize("name", CUE_NAMES)
def test_cue_is_a_valid_audible_wav_of_its_length(name: str) -> None:
    with wave.open(io.BytesIO(wav_bytes(name)), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, SAMPLE_RATE)
        frames = w.getnframes()
        pcm = np.frombuffer(w.readframes(frames), dtype="<i2").astype(float) / 32768
    assert frames / SAMPLE_RATE == pytest.approx(cue_duration(name), abs=0.01)
    assert 0.05 < cue_duration(name) < 1.5  # short effects, never a long jingle
    rms = float(np.sqrt(np.mean(pcm**2)))
    assert rms > 0.01  # not silence
    assert float(np.max(np.abs(pcm))) <= 0.99  # no clipping


def _spectrum(name: str) -> np.ndarray:
    samples = synthesize(name)
    n = 16384
    padded = np.zeros(n)
    padded[: min(n, len(samples))] = samples[:n]
    mag = np.abs(np.fft.rfft(padded))
    bands = np.add.reduceat(mag, np.linspace(0, len(mag) - 1, 65).astype(int)[:-1])
    return bands / np.linalg.norm(bands)


def test_cues_have_distinct_spectra() -> None:
    spectra = {name: _spectrum(name) for name in CUE_NAMES}
    for i, a in enumerate(CUE_NAMES):
        for b in CUE_NAMES[i + 1 :]:
            similarity = float(spectra[a] @ spectra[b])
            assert similarity < 0.95, f"{a} and {b} sound too alike ({similarity:.2f})"


def test_wav_bytes_differ_per_nonce_so_streamlit_replays_them() -> None:
    assert wav_bytes("wrong", nonce=1) != wav_bytes("wrong", nonce=2)
    assert wav_bytes("wrong") == wav_bytes("wrong")  # deterministic otherwise


def test_unknown_cue_is_a_typed_error() -> None:
    with pytest.raises(UnknownCueError, match="unknown sound cue 'boing'"):
        wav_bytes("boing")
