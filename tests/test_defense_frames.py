"""defense.frames: the frames a screen animates come from the same ticks as run_wave.

Each wave is played twice: once by ``frames`` (``step`` ticks a frame, possibly paused and
resumed) and once by an independent ``Defense.run_wave``; the last frame must equal the
wave's record, and frames at the same tick must agree whatever the step."""
import math

import pytest

from levelforge.defense import Defense, frames
from levelforge.errors import ConfigError, InvalidMoveError

OPENINGS = [(), ((4, 5, "cannon"), (3, 6, "cannon")),
            ((4, 5, "cannon"), (3, 6, "cannon"), (3, 1, "wall")),
            ((3, 5, "cannon"), (4, 5, "cannon"))]


def _game(seed, opening):
    d = Defense(seed=seed)
    for x, y, kind in opening:
        if d.check_placement(x, y, kind).ok:
            d.place(x, y, kind)
    return d


def _record_of(frame):
    return (frame.status, frame.tick, frame.kills, frame.leaks_a, frame.leaks_b, frame.health,
            tuple(c.shots for c in frame.cannons), tuple(c.overheat_stops for c in frame.cannons))


@pytest.mark.parametrize("step", [1, 7, 60])
@pytest.mark.parametrize("seed", [0, 5])
def test_last_frame_equals_the_record_of_run_wave(seed, step):
    for opening in OPENINGS:
        shown, reference = _game(seed, opening), _game(seed, opening)
        for _ in range(3):  # as far as the openings get, wave by wave
            last = list(frames(shown, step=step))[-1]
            rec = reference.run_wave()
            assert _record_of(last) == (rec.outcome, rec.ticks, rec.kills, rec.leaks_a,
                                        rec.leaks_b, rec.health, rec.shots,
                                        rec.overheat_stops)
            assert shown.to_dict() == reference.to_dict()
            if rec.outcome == "lost" or reference.phase == "victory":
                break


def test_frames_agree_at_the_same_tick_whatever_the_step():
    fine = list(frames(_game(2, OPENINGS[1]), step=1, limit=600))
    coarse = list(frames(_game(2, OPENINGS[1]), step=30, limit=20))
    for f in coarse:
        assert f == fine[f.tick - 1]


def test_paused_and_resumed_frames_equal_uninterrupted_ones():
    d = _game(3, OPENINGS[1])
    first = list(frames(d, step=5, limit=40))
    assert d.phase == "fight" and first[-1].tick == 200
    rest = list(frames(d, step=5))
    whole = list(frames(_game(3, OPENINGS[1]), step=5))
    assert first + rest == whole


def test_ships_sail_between_neighbouring_cells_and_cannons_aim_within_range():
    d = _game(1, OPENINGS[1])
    reach = d.scenario.cannon.range
    seen_shot = False
    for f in frames(d, step=3):
        ships = {s.number: s for s in f.ships}
        for s in f.ships:
            assert 0 <= s.x <= 6 and 0 <= s.y <= 8
            assert s.x == int(s.x) or s.y == int(s.y)  # moving along one axis
            assert 0 <= s.hp <= s.max_hp
        for c in f.cannons:
            if c.target is not None:
                t = ships[c.target]
                assert t.status == "alive"
                assert math.hypot(t.x - c.x, t.y - c.y) <= reach + 1e-9
                seen_shot = seen_shot or c.shots > 0
    assert seen_shot


def test_frames_check_their_input_and_phase():
    d = Defense(seed=0)
    with pytest.raises(ConfigError, match="step must be a positive integer"):
        next(frames(d, step=0))
    with pytest.raises(InvalidMoveError, match="no wave is running"):
        from levelforge.defense.frames import frame
        frame(d)
