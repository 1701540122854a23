"""A Gymnasium environment for Sokoban, registered as ``levelforge/Sokoban-v0``.

Importing this module (it needs the ``rl`` extra: ``pip install 'levelforge[rl]'``)
registers the environment. Every ``reset`` plays a fresh level from the generator (or
the next level of a file), and ``info`` carries the level's seed, its push-optimal
length and the pushes made so far: an agent's pushes can be compared with the optimum.

>>> import gymnasium as gym
>>> import levelforge.sokoban.env
>>> env = gym.make("levelforge/Sokoban-v0", levels={"width": 7, "height": 7, "boxes": 2})
>>> obs, info = env.reset(seed=1)
>>> obs.shape, sorted(info)
((4, 7, 7), ['boxes_on_goals', 'level_index', 'optimal_pushes', 'pushes', 'seed', 'steps'])
>>> obs, reward, terminated, truncated, info = env.step(0)   # up
>>> reward in (-0.1, 0.9, -1.1, 10.9)
True

Levels (``levels=``): a generator configuration (a dict of
:class:`~levelforge.sokoban.Generator` arguments, or a ``Generator``); ``"campaign"`` or
any function of the episode number returning a configuration (a curriculum; give
``size=(height, width)`` for your own function); a level file (XSB or Boxoban; a JSONL
sidecar of the same name, as ``levelforge sokoban dataset`` writes, supplies seeds and
optima, otherwise levels are solved on first use); or a list of
:class:`~levelforge.sokoban.Level`. Files and lists play ``order="sequential"`` (a
seeded reset starts at level ``seed % len``) or ``"random"``. ``reset(options=...)``
takes ``{"pushes": (lo, hi)}`` (this episode's target range, for generator sources),
``{"episode": k}`` (curricula) or ``{"index": k}`` (files and lists).

Observation: ``"channels"`` (default), a ``(4, height, width)`` uint8 array of 0/1 for
wall, goal, box, player (levels smaller than the observation are padded with wall at
the right and bottom); or ``"rgb"``, the image ``render()`` gives. Actions:
``"moves"`` (up, down, left, right; walking into a box pushes it) or ``"gym-sokoban"``
(its nine: no-op, push up/down/left/right, move up/down/left/right without pushing), so
agents trained on gym-sokoban run unchanged. Rewards default to gym-sokoban's.
"""
import importlib.util
import json
import os

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..errors import ConfigError
from .generator import CAMPAIGN_STAGES, Generator, campaign, generate
from .enclosure import outside as outside_cells
from .level import Level, load_xsb
from .render import BOX, GOAL, PLAYER, WALL, draw, tiles
from .solver import Solver

ENV_ID = "levelforge/Sokoban-v0"
DEFAULT_LEVELS = {"width": 10, "height": 10, "boxes": 4, "pushes": (15, 30)}
"""Levels of the default environment: gym-sokoban's and Boxoban's 10x10 rooms, 4 boxes."""
DEFAULT_REWARDS = {"step": -0.1, "box_on": 1.0, "box_off": -1.0, "solved": 10.0}
"""gym-sokoban's rewards: every step, a box pushed onto / off a goal, all boxes on goals."""
_BROWSER = importlib.util.find_spec("levelforge.play") is not None
ACTIONS = {"moves": ("up", "down", "left", "right"),
           "gym-sokoban": ("no operation", "push up", "push down", "push left", "push right",
                           "move up", "move down", "move left", "move right")}
"""The action sets and the meaning of each action."""


class SokobanEnv(gym.Env):
    """Sokoban as a Gymnasium environment (see the module documentation).

    ``max_steps`` truncates an episode (gym-sokoban's 120 by default); ``tile`` is the
    RGB tile size in pixels; ``solve_nodes`` caps the solve that finds a file level's
    optimum when no sidecar gives it (``optimal_pushes`` is -1 if the cap is hit).

    >>> env = SokobanEnv(levels=[Level.from_xsb("#####\\n#@$.#\\n#####")])
    >>> obs, info = env.reset(seed=0)
    >>> info["optimal_pushes"], env.step(3)[1:3]   # right: the box onto its goal
    (1, (10.9, True))
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 8}

    def __init__(self, levels=None, order="sequential", observation="channels",
                 actions="moves", rewards=None, max_steps=120, render_mode=None, tile=16,
                 size=None, solve_nodes=200_000):
        if render_mode not in (None, "rgb_array", "human"):
            raise ConfigError(f"render_mode must be None, 'rgb_array' or 'human', "
                              f"got {render_mode!r}")
        if render_mode == "human" and not _BROWSER:
            raise ConfigError("render_mode='human' opens levelforge's browser view "
                              "(`levelforge play`), which this installation does not have; "
                              "use render_mode='rgb_array' and show the frames yourself")
        if observation not in ("channels", "rgb"):
            raise ConfigError(f"observation must be 'channels' or 'rgb', got {observation!r}")
        if actions not in ACTIONS:
            raise ConfigError(f"actions must be one of {sorted(ACTIONS)}, got {actions!r}")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ConfigError(f"max_steps must be a positive integer, got {max_steps!r}")
        self.rewards = _rewards(rewards)
        self.render_mode, self.observation, self.actions = render_mode, observation, actions
        self.max_steps = max_steps
        self._source = _source(levels, order, size, solve_nodes)
        self.height, self.width = self._source.size
        try:
            self._tiles = tiles(tile)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        t = self._tiles.shape[1]
        self.action_space = spaces.Discrete(len(ACTIONS[actions]))
        if observation == "channels":
            self.observation_space = spaces.Box(0, 1, (4, self.height, self.width), np.uint8)
        else:
            self.observation_space = spaces.Box(0, 255, (self.height * t, self.width * t, 3),
                                                np.uint8)
        n = self.height * self.width
        self._delta = (-self.width, self.width, -1, 1)
        self._cells = bytearray(n)
        self._channels = np.zeros((4, n), np.uint8)
        self._frame = np.zeros((self.height * t, self.width * t, 3), np.uint8)
        self._drawn = observation == "rgb" or render_mode == "rgb_array"
        self._player = 0
        self._episode = 0
        self._info = None
        self._viewer = None
        if render_mode == "human":  # levelforge play's /watch page follows the episode
            from ..play.watch import Viewer
            self._viewer = Viewer()

    # ------------------------------------------------------------------ episodes
    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        options = dict(options or {})
        if seed is not None:
            self._source.restart(seed)
            self._episode = 0
        level, info = self._source.next(self.np_random, self._episode, options)
        self._episode += 1
        self._load(level)
        self._info = {"seed": info[0], "optimal_pushes": info[1], "level_index": info[2],
                      "pushes": 0, "steps": 0, "boxes_on_goals": self._on}
        if self._viewer is not None:
            self._show()
        return self._observe(), dict(self._info)

    def _load(self, level):
        if level.width > self.width or level.height > self.height:
            raise ConfigError(f"a {level.width}x{level.height} level does not fit the "
                              f"{self.width}x{self.height} observation: give size=(height, "
                              f"width)")
        w = self.width
        cells = self._cells
        cells[:] = bytes([WALL]) * len(cells)
        outside = outside_cells(level.width, level.height, level.walls)
        for y in range(level.height):
            for x in range(level.width):
                if (x, y) not in level.walls and (x, y) not in outside:
                    cells[y * w + x] = 0
        for x, y in level.goals:
            cells[y * w + x] |= GOAL
        for x, y in level.boxes:
            cells[y * w + x] |= BOX
        self._player = level.player[1] * w + level.player[0]
        self._boxes = len(level.boxes)
        self._on = len(level.boxes & level.goals)
        self._steps = self._pushes = 0
        codes = np.frombuffer(bytes(cells), np.uint8)
        for channel, bit in enumerate((WALL, GOAL, BOX)):
            np.not_equal(codes & bit, 0, out=self._channels[channel], casting="unsafe")
        self._channels[3] = 0
        self._channels[3, self._player] = 1
        if self._drawn:
            codes = codes.copy()
            codes[self._player] |= PLAYER
            draw(self._frame, codes, w, self._tiles)

    # ---------------------------------------------------------------------- steps
    def step(self, action):
        if not 0 <= action < self.action_space.n:
            raise ConfigError(f"action {action!r} is not in {self.action_space}")
        if self.actions == "moves":
            direction, push = action, True
        elif action == 0:
            direction, push = -1, False
        else:
            direction, push = (action - 1) % 4, action < 5
        cells, p = self._cells, self._player
        reward = self.rewards["step"]
        changed = ()
        if direction >= 0:
            d = self._delta[direction]
            t = p + d
            c = cells[t]
            if c & BOX:
                b = t + d
                if push and not cells[b] & (WALL | BOX):
                    cells[t] = c & ~BOX
                    cells[b] |= BOX
                    on = (cells[b] & GOAL != 0) - (c & GOAL != 0)
                    if on:
                        self._on += on
                        reward += self.rewards["box_on"] if on > 0 else self.rewards["box_off"]
                    self._pushes += 1
                    self._channels[2, t] = 0
                    self._channels[2, b] = 1
                    changed = (p, t, b)
            elif not c & WALL:
                changed = (p, t)
            if changed:
                self._player = t
                self._channels[3, p] = 0
                self._channels[3, t] = 1
                if self._drawn:
                    self._redraw(changed)
        self._steps += 1
        terminated = self._on == self._boxes
        if terminated:
            reward += self.rewards["solved"]
        truncated = not terminated and self._steps >= self.max_steps
        info = self._info
        info["pushes"], info["steps"], info["boxes_on_goals"] = \
            self._pushes, self._steps, self._on
        if self._viewer is not None:
            self._show()
        return self._observe(), reward, terminated, truncated, dict(info)

    def _redraw(self, cells):
        """Repaint the two or three cells a step changed."""
        t = self._tiles.shape[1]
        for cell in cells:
            y, x = divmod(cell, self.width)
            code = self._cells[cell] | (PLAYER if cell == self._player else 0)
            self._frame[y * t:(y + 1) * t, x * t:(x + 1) * t] = self._tiles[code]

    def _observe(self):
        if self.observation == "channels":
            return self._channels.reshape(4, self.height, self.width).copy()
        return self._frame.copy()

    # ------------------------------------------------------------------ rendering
    def render(self):
        """The board as an RGB image (``render_mode="rgb_array"``); with
        ``render_mode="human"`` the position goes to the browser view instead (it is sent
        after every reset and step anyway)."""
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: make the environment with "
                            "render_mode='rgb_array'")
            return None
        if self._viewer is not None:
            self._show()
            return None
        return self._frame.copy()

    def _show(self):
        self._viewer.show(self.level, f"episode {self._episode}, step {self._steps}: "
                                      f"{self._pushes} pushes, {self._on} of {self._boxes} "
                                      "boxes on goals")

    def close(self):
        """Stop the browser view's server (``render_mode="human"``)."""
        if self._viewer is not None:
            self._viewer.close()
        super().close()

    @property
    def level(self):
        """The current state as a :class:`~levelforge.sokoban.Level` (the observation's
        size; cells outside the room are walls)."""
        w, cells = self.width, self._cells

        def where(bit):
            return frozenset((i % w, i // w) for i, c in enumerate(cells) if c & bit)

        return Level(w, self.height, where(WALL), where(GOAL), where(BOX),
                     (self._player % w, self._player // w))


# ------------------------------------------------------------------- level sources
def _rewards(rewards):
    out = dict(DEFAULT_REWARDS)
    for key, value in (rewards or {}).items():
        if key not in DEFAULT_REWARDS:
            raise ConfigError(f"unknown reward {key!r}; rewards are {sorted(DEFAULT_REWARDS)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"reward {key!r} must be a number, got {value!r}")
        out[key] = float(value)
    return out


def _source(levels, order, size, solve_nodes):
    if order not in ("sequential", "random"):
        raise ConfigError(f"order must be 'sequential' or 'random', got {order!r}")
    if levels is None:
        levels = dict(DEFAULT_LEVELS)
    if isinstance(levels, Generator):
        levels = levels.to_dict()
    if isinstance(levels, dict):
        return _Generated(levels, size)
    if levels == "campaign" or levels is campaign:
        stages = CAMPAIGN_STAGES
        return _Curriculum(campaign, size or (max(s[1] for s in stages),
                                              max(s[0] for s in stages)))
    if callable(levels):
        if size is None:
            raise ConfigError("a curriculum function needs size=(height, width), the largest "
                              "level it makes")
        return _Curriculum(levels, size)
    if isinstance(levels, (str, os.PathLike)):
        return _Fixed(*_load_file(levels), order, size, solve_nodes)
    levels = list(levels)
    if not levels or not all(isinstance(lv, Level) for lv in levels):
        raise ConfigError("levels must be a generator configuration, a Generator, "
                          "'campaign', a function, a level file or a non-empty list of Level")
    return _Fixed(levels, None, order, size, solve_nodes)


def _size(size, height, width):
    if size is None:
        return height, width
    try:
        h, w = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ConfigError(f"size must be (height, width), got {size!r}") from None
    if not (3 <= h <= 64 and 3 <= w <= 64):
        raise ConfigError(f"size must be (height, width) within 3..64, got {size!r}")
    return h, w


class _Generated:
    """A fresh generated level every episode; seeds drawn from the environment's RNG."""

    def __init__(self, config, size):
        self.config = dict(config)
        gen = Generator(**self.config)  # validates now, not at the first reset
        self.size = _size(size, gen.height, gen.width)

    def restart(self, seed):
        pass

    def next(self, rng, episode, options):
        config = self.config
        if "pushes" in options:
            config = {k: v for k, v in config.items() if k not in ("skip", "max_pulls")}
            config["pushes"] = options["pushes"]
        seed = int(rng.integers(0, 2**63 - 1))
        result = generate(seed, **config)
        return result.level, (seed, result.pushes, -1)


class _Curriculum(_Generated):
    """Episode ``k`` plays a level of configuration ``fn(k)``."""

    def __init__(self, fn, size):
        self.fn = fn
        self.size = _size(size, 3, 3)

    def next(self, rng, episode, options):
        episode = options.get("episode", episode)
        self.config = dict(self.fn(episode))
        return super().next(rng, episode, options)


class _Fixed:
    """Levels of a file or list, in order or sampled; optima from a sidecar or solved."""

    def __init__(self, levels, records, order, size, solve_nodes):
        self.levels, self.order = levels, order
        self.size = _size(size, max(lv.height for lv in levels), max(lv.width for lv in levels))
        self.seeds = [r.get("seed", -1) for r in records] if records else [-1] * len(levels)
        self.optima = [r.get("pushes", -1) for r in records] if records else [None] * len(levels)
        self.solver = Solver(max_nodes=solve_nodes)
        self.cursor = 0

    def restart(self, seed):
        self.cursor = seed % len(self.levels)

    def next(self, rng, episode, options):
        if "index" in options:
            index = options["index"]
            if not isinstance(index, int) or not 0 <= index < len(self.levels):
                raise ConfigError(f"index {index!r} is not in [0, {len(self.levels)})")
        elif self.order == "random":
            index = int(rng.integers(0, len(self.levels)))
        else:
            index = self.cursor
            self.cursor = (self.cursor + 1) % len(self.levels)
        if self.optima[index] is None:
            result = self.solver.solve(self.levels[index])
            self.optima[index] = result.pushes if result.solved else -1
        return self.levels[index], (self.seeds[index], self.optima[index], index)


def _load_file(path):
    """The levels of an XSB or Boxoban file and the records of its JSONL sidecar."""
    levels = load_xsb(path)
    side = os.path.splitext(os.fspath(path))[0] + ".jsonl"
    if not os.path.exists(side):
        return levels, None
    with open(side, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh if line.strip()]
    if len(records) != len(levels):
        raise ConfigError(f"{side} holds {len(records)} records for the {len(levels)} levels "
                          f"of {os.fspath(path)}")
    return levels, records


gym.register(id=ENV_ID, entry_point="levelforge.sokoban.env:SokobanEnv")
