#!/usr/bin/env python3
"""Make the table's sounds (src/taash/web/sounds/*.wav) from nothing but arithmetic: each is a
few plucked or struck tones with a fast decay, 8-bit mono PCM at 16 kHz, so each file is a few
kilobytes and the project owns every byte.  The noise is seeded: the same files every time
(tests/web/test_sound.py checks that this script makes exactly the files committed).

    python scripts/make_sounds.py [FOLDER]
"""

from __future__ import annotations

import math
import random
import sys
import wave
from pathlib import Path

RATE = 16_000
OUT = Path(__file__).resolve().parents[1] / "src" / "taash" / "web" / "sounds"

# A note: (start s, frequency Hz, length s, loudness 0..1); frequency 0 is a soft noise tap.
Note = tuple[float, float, float, float]
SOUNDS: dict[str, list[Note]] = {
    # a card laid on the felt: a short, soft tap
    "play": [(0.0, 0, 0.05, 0.55), (0.0, 190, 0.05, 0.25)],
    # your turn: two rising notes
    "turn": [(0.0, 660, 0.12, 0.35), (0.09, 880, 0.16, 0.35)],
    # a trick won: the cards swept together, and a low note
    "trick": [(0.0, 0, 0.09, 0.35), (0.02, 392, 0.14, 0.3)],
    # a deal won: a rising major arpeggio
    "won": [(0.0, 523, 0.16, 0.3), (0.1, 659, 0.16, 0.3), (0.2, 784, 0.22, 0.32)],
    # a deal lost: two falling notes
    "lost": [(0.0, 392, 0.2, 0.3), (0.15, 311, 0.26, 0.3)],
}


def render(notes: list[Note], seed: int) -> bytes:
    rng = random.Random(seed)
    length = max(start + dur for start, _, dur, _ in notes) + 0.01
    samples = [0.0] * int(length * RATE)
    for start, freq, dur, loud in notes:
        first = int(start * RATE)
        for i in range(int(dur * RATE)):
            t = i / RATE
            decay = math.exp(-t * (60 if freq == 0 else 9 / dur / 3))
            attack = min(1.0, t * 400)  # no click at the start
            if freq == 0:
                wave_ = rng.uniform(-1, 1)
            else:  # a tone with a little of its octave: softer than a pure sine
                wave_ = math.sin(2 * math.pi * freq * t) + 0.25 * math.sin(4 * math.pi * freq * t)
            samples[first + i] += loud * attack * decay * wave_
    peak = max(1.0, max(abs(s) for s in samples))
    return bytes(max(0, min(255, round(128 + 127 * s / peak))) for s in samples)


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for n, (name, notes) in enumerate(SOUNDS.items()):
        path = folder / f"{name}.wav"
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(1)  # 8-bit: small, and enough for a click and a chime
            w.setframerate(RATE)
            w.writeframes(render(notes, seed=n))
        made.append(path)
    return made


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT):
        print(f"{p}  {p.stat().st_size} bytes")
