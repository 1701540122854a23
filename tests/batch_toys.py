"""Small picklable generators for the batch tests (importable by worker processes)."""
import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class ToyResult:
    seed: int
    value: int
    elapsed_ms: float

    def to_dict(self):
        return {"seed": self.seed, "value": self.value, "elapsed_ms": self.elapsed_ms}


@dataclass(frozen=True)
class Toy:
    """value = seed mod modulus; ``fail_below`` makes items whose value is below it fail;
    ``interrupt_at`` raises KeyboardInterrupt on that value; ``sleep_ms`` slows each item
    (a worker's sleep, like a Numba kernel, runs on through a Ctrl-C). ``log`` is a file
    that gets ``seed time`` for every finished item and ``warm pid`` for every warm-up.
    None of these are configuration: a file made with them resumes with a plain Toy."""

    modulus: int = 1000
    fail_below: int = -1
    interrupt_at: int = -1
    sleep_ms: float = 0.0
    log: str = ""

    def _log(self, text):
        if self.log:
            with open(self.log, "a") as fh:
                fh.write(text + "\n")

    def warm_up(self):
        self._log(f"warm {os.getpid()}")

    def to_dict(self):
        return {"modulus": self.modulus}

    def generate(self, seed):
        t = time.perf_counter()
        value = seed % self.modulus
        if value < self.fail_below:
            raise ValueError(f"value {value} is too small")
        if value == self.interrupt_at:
            raise KeyboardInterrupt
        if self.sleep_ms:
            time.sleep(self.sleep_ms / 1e3)
        self._log(f"{seed} {time.time()}")
        return ToyResult(seed, value, (time.perf_counter() - t) * 1e3)

    @staticmethod
    def summarize(records):
        return {"mean value": sum(r["value"] for r in records) / len(records)}
