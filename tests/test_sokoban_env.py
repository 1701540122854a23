"""The Gymnasium environment (issue 14): checked by gymnasium's env checker, in vector
environments, and step by step against ``sokoban.replay`` and ``sokoban.solve``."""
import json
import urllib.request
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.passive_env_checker import env_render_passive_checker

from levelforge import ConfigError
from levelforge.sokoban import Level, generate, replay, solve
from levelforge.sokoban.dataset import build
from levelforge.sokoban.env import DEFAULT_REWARDS, ENV_ID, SokobanEnv
from levelforge.sokoban.render import BOX, GOAL, PLAYER, WALL, draw, tiles

SMALL = {"width": 7, "height": 7, "boxes": 2, "pushes": (4, 8)}
LURD = "udlr"  # action k of the "moves" set walks in direction LURD[k]

TWO_BOXES = Level.from_xsb("""
#######
#@$.  #
#  $. #
#######""")
ONE_PUSH = Level.from_xsb("""
#####
#@$.#
#####""")


def make(**kwargs):
    return gym.make(ENV_ID, **kwargs).unwrapped


def play(env, actions):
    """Step ``actions``; return the LURD string of what happened and the rewards."""
    moves, rewards = [], []
    for a in actions:
        before = (env.level.player, env.level.boxes)
        _, reward, terminated, truncated, info = env.step(int(a))
        rewards.append(reward)
        after = (env.level.player, env.level.boxes)
        if after != before:
            letter = LURD[a if env.actions == "moves" else (a - 1) % 4]
            moves.append(letter.upper() if after[1] != before[1] else letter)
        if terminated or truncated:
            break
    return "".join(moves), rewards


@pytest.mark.parametrize("kwargs", [
    {}, {"observation": "rgb", "tile": 8}, {"actions": "gym-sokoban", "render_mode": "rgb_array"},
    {"levels": "campaign"}, {"levels": [TWO_BOXES, ONE_PUSH], "order": "random"},
])
def test_check_env(kwargs):
    env = make(**kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # the checker would make every declared render mode; 'human' opens the browser
        # view (test_human_render_mode_shows_every_step_in_the_browser_view), so
        # rgb_array is checked here
        check_env(env, skip_render_check=True)
        rendering = make(**{**kwargs, "render_mode": "rgb_array"})
        rendering.reset(seed=0)
        env_render_passive_checker(rendering)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_env(mode):
    envs = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode, levels=SMALL, max_steps=5)
    obs, info = envs.reset(seed=3)
    assert obs.shape == (2, 4, 7, 7) and list(info["seed"]) != [-1, -1]
    single = make(levels=SMALL, max_steps=5)
    for i in range(2):  # sub-environment i is seeded with seed + i
        o, inf = single.reset(seed=3 + i)
        assert np.array_equal(obs[i], o) and info["seed"][i] == inf["seed"]
    for _ in range(6):  # past max_steps: autoreset
        obs, reward, terminated, truncated, info = envs.step(np.zeros(2, np.int64))
    assert obs.shape == (2, 4, 7, 7) and reward.shape == (2,)
    envs.close()


def test_steps_match_replay():
    env = make(levels=SMALL, max_steps=400)
    rng = np.random.default_rng(0)
    for episode in range(20):
        env.reset(seed=episode)
        start = env.level
        moves, _ = play(env, rng.integers(0, 4, 300))
        expected = replay(start, moves)
        assert env.level.boxes == expected.boxes and env.level.player == expected.player


def test_gym_sokoban_actions_move_never_pushes_and_push_walks():
    env = make(levels=[ONE_PUSH], actions="gym-sokoban")
    env.reset(seed=0)
    _, reward, *_ = env.step(8)  # move right: a box is there, nothing happens
    assert env.level.player == (1, 1) and reward == DEFAULT_REWARDS["step"]
    env.step(0)  # no operation
    assert env.level.player == (1, 1)
    *_, terminated, _, info = env.step(4)  # push right
    assert terminated and info["pushes"] == 1 and env.level.boxes == {(3, 1)}


def test_rewards_are_gym_sokobans_by_default():
    env = make(levels=SMALL, max_steps=1000)
    rng = np.random.default_rng(2)
    for episode in range(10):
        env.reset(seed=episode)
        for a in rng.integers(0, 4, 300):
            level = env.level
            before = len(level.boxes & level.goals)
            _, reward, terminated, _, _ = env.step(int(a))
            after = len(env.level.boxes & env.level.goals)
            expected = -0.1 + (after > before) - (after < before) + 10 * terminated
            assert reward == pytest.approx(expected)
            if terminated:
                break
    env = make(levels=[ONE_PUSH])
    env.reset(seed=0)
    assert env.step(3)[1:3] == (pytest.approx(-0.1 + 1 + 10), True)


def test_rewards_configurable():
    env = make(levels=[ONE_PUSH], rewards={"step": 0, "solved": 1})
    env.reset(seed=0)
    assert env.step(3)[1] == pytest.approx(1 + 1)  # box on (+1) and solved (+1)
    with pytest.raises(ConfigError, match="unknown reward"):
        make(rewards={"win": 1})


def test_truncation_at_max_steps():
    env = make(levels=[TWO_BOXES], max_steps=3)
    env.reset(seed=0)
    flags = [env.step(0)[2:4] for _ in range(3)]
    assert flags == [(False, False), (False, False), (False, True)]


def test_info_carries_seed_optimum_and_pushes():
    env = make(levels=SMALL)
    _, info = env.reset(seed=11)
    result = generate(info["seed"], **SMALL)
    assert result.level.boxes == env.level.boxes and result.level.player == env.level.player
    assert info["optimal_pushes"] == solve(result.level).pushes == result.pushes
    # the proof, played as actions, solves the level with exactly the optimal pushes
    for letter in result.solution:
        _, reward, terminated, truncated, info = env.step(LURD.index(letter.lower()))
    assert terminated and not truncated and info["pushes"] == result.pushes
    assert reward >= DEFAULT_REWARDS["solved"] + DEFAULT_REWARDS["step"]


def test_observation_channels_are_the_board():
    env = make(levels=[TWO_BOXES], size=(5, 9))
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4, 5, 9) and obs.dtype == np.uint8
    wall, goal, box, player = obs
    assert wall[4].all() and wall[:, 7:].all()  # padding is wall
    assert {(x, y) for y, x in zip(*np.nonzero(goal))} == TWO_BOXES.goals
    assert {(x, y) for y, x in zip(*np.nonzero(box))} == TWO_BOXES.boxes
    assert list(zip(*np.nonzero(player))) == [(1, 1)]
    assert {(x, y) for y, x in zip(*np.nonzero(wall[:4, :7]))} == TWO_BOXES.walls


def test_rgb_tiles_drawn_once_and_updated_per_step():
    env = make(levels=SMALL, observation="rgb", tile=4, max_steps=500)
    rng = np.random.default_rng(1)
    env.reset(seed=2)
    for a in rng.integers(0, 4, 200):
        obs = env.step(int(a))[0]
    level = env.level
    codes = np.zeros(level.width * level.height, np.uint8)
    for bit, cells in ((WALL, level.walls), (GOAL, level.goals), (BOX, level.boxes),
                       (PLAYER, {level.player})):
        for x, y in cells:
            codes[y * level.width + x] |= bit
    full = np.zeros_like(obs)
    draw(full, codes, level.width, tiles(4))
    assert np.array_equal(obs, full)
    assert tiles(4) is tiles(4)  # drawn once per size


def test_target_push_range_per_episode():
    env = make(levels=SMALL)
    env.reset(seed=5)
    for lo, hi in ((2, 3), (6, 8)):
        _, info = env.reset(options={"pushes": (lo, hi)})
        assert lo <= info["optimal_pushes"] <= hi


def test_campaign_levels_grow_with_episodes():
    env = make(levels="campaign")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4, 8, 8) and env.level.boxes and len(env.level.boxes) == 1
    _, info = env.reset(options={"episode": 65})
    assert len(env.level.boxes) == 3 and 8 <= info["optimal_pushes"] <= 12


def test_file_levels_in_order_with_sidecar(tmp_path):
    build(tmp_path, 5, seed=2, config=SMALL, show_progress=False)
    env = make(levels=tmp_path / "000.txt")
    lines = (tmp_path / "000.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    seen = [env.reset(seed=1 if k == 0 else None)[1] for k in range(6)]
    assert [i["level_index"] for i in seen] == [1, 2, 3, 4, 0, 1]  # seed 1 starts at 1
    for info in seen:
        assert info["seed"] == records[info["level_index"]]["seed"]
        assert info["optimal_pushes"] == records[info["level_index"]]["pushes"]


def test_level_lists_without_optimum_are_solved():
    env = make(levels=[TWO_BOXES, ONE_PUSH], order="random")
    for seed in range(4):
        _, info = env.reset(seed=seed)
        level = [TWO_BOXES, ONE_PUSH][info["level_index"]]
        assert info["seed"] == -1 and info["optimal_pushes"] == solve(level).pushes
    _, info = env.reset(options={"index": 1})
    assert info["level_index"] == 1


def test_human_render_mode_shows_every_step_in_the_browser_view(monkeypatch):
    pytest.importorskip("uvicorn")
    monkeypatch.setenv("LEVELFORGE_NO_BROWSER", "1")
    env = make(render_mode="human", levels=[TWO_BOXES])
    try:
        env.reset(seed=0)
        env.step(3)  # right: a push

        def shown():
            with urllib.request.urlopen(env._viewer.url + "api/watch", timeout=60) as r:
                return json.load(r)
        got = shown()
        assert (got["version"], got["svg"]) == (2, env.level.to_svg(cell=48))
        assert got["caption"] == "episode 1, step 1: 1 pushes, 1 of 2 boxes on goals"
        assert env.render() is None and shown()["version"] == 3
    finally:
        env.close()


@pytest.mark.parametrize("kwargs, match", [
    ({"actions": "wasd"}, "actions"), ({"max_steps": 0}, "max_steps"),
    ({"observation": "pixels"}, "observation"), ({"levels": lambda k: SMALL}, "size"),
    ({"levels": {"width": 2}}, "width"), ({"order": "shuffled"}, "order"),
])
def test_bad_configuration_is_refused(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        SokobanEnv(**kwargs)


def test_bad_action_changes_nothing():
    env = make(levels=[ONE_PUSH])
    env.reset(seed=0)
    with pytest.raises(ConfigError, match="action 4"):
        env.step(4)
    assert env.level.player == (1, 1) and env.step(0)[4]["steps"] == 1
