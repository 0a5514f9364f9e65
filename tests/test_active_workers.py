"""How many of a process's worker threads work at once (``crawl.active_workers``): fewer when the
process is bound by its CPU, all of them again when it waits."""

from __future__ import annotations

import threading

from politecrawl.crawl.active_workers import (
    BUSY,
    IDLE,
    SATURATED,
    SHARED_BUSY,
    ActiveWorkers,
    MachineLoad,
)


class _Machine:
    """Wall and CPU time that a test moves by hand."""

    def __init__(self) -> None:
        self.wall_seconds = 100.0
        self.cpu_seconds = 10.0
        self.machine_busy: float | None = None

    def wall(self) -> float:
        return self.wall_seconds

    def cpu(self) -> float:
        return self.cpu_seconds

    def machine(self) -> float | None:
        return self.machine_busy

    def run(self, seconds: float, cpu_share: float) -> None:
        self.wall_seconds += seconds
        self.cpu_seconds += seconds * cpu_share


def _active(most: int, machine: _Machine, window: float = 0.5) -> ActiveWorkers:
    return ActiveWorkers(
        most, window=window, wall=machine.wall, cpu=machine.cpu, machine=machine.machine
    )


def _never() -> bool:
    return False


def test_a_process_bound_by_its_cpu_halves_its_working_threads_down_to_one():
    machine = _Machine()
    active = _active(8, machine)
    for _ in range(8):
        assert active.enter(_never)
    limits = []
    for _ in range(5):
        machine.run(0.5, BUSY + 0.05)
        active.over_limit()
        limits.append(active.limit)
    assert limits == [4, 2, 1, 1, 1]
    assert active.over_limit()  # eight working, one allowed: the others stand by


def test_a_waiting_process_doubles_its_working_threads_up_to_the_configured_count():
    machine = _Machine()
    active = _active(8, machine)
    active.limit = 1
    assert active.enter(_never)
    limits = []
    for _ in range(5):
        machine.run(0.5, IDLE - 0.05)
        active.over_limit()
        limits.append(active.limit)
    assert limits == [2, 4, 8, 8, 8]


def test_between_busy_and_idle_or_within_a_window_the_limit_stays():
    machine = _Machine()
    active = _active(4, machine)
    machine.run(0.5, (BUSY + IDLE) / 2)
    active.over_limit()
    assert active.limit == 4
    machine.run(0.4, 1.0)  # CPU-bound, but the window is not over
    active.over_limit()
    assert active.limit == 4
    machine.run(0.2, 1.0)
    active.over_limit()
    assert active.limit == 2


def test_a_process_sharing_a_saturated_machine_is_bound_by_its_cpu_sooner():
    """Two crawl processes and the web server on two cores: each process gets less than a
    core, and more threads would not get it more."""
    machine = _Machine()
    active = _active(4, machine)
    share = (SHARED_BUSY + BUSY) / 2
    machine.machine_busy = SATURATED - 0.05
    machine.run(0.5, share)
    active.over_limit()
    assert active.limit == 4  # the machine has CPU to spare: the share is all it needs
    machine.machine_busy = SATURATED + 0.05
    machine.run(0.5, share)
    active.over_limit()
    assert active.limit == 2
    machine.run(0.5, IDLE - 0.05)  # waiting on the network: more threads, however busy
    active.over_limit()
    assert active.limit == 4


def test_the_machine_load_is_the_busy_share_of_all_cores_since_the_last_reading(tmp_path):
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\n")
    load = MachineLoad(stat)
    stat.write_text("cpu  160 0 80 850 60 0 0 0 0 0\n")  # 90 busy of 150
    assert load() == 0.6
    assert load() is None  # nothing has passed since
    stat.write_text("no cpu line")
    assert load() is None
    assert MachineLoad(tmp_path / "missing")() is None


def test_a_thread_over_the_limit_waits_until_another_leaves():
    machine = _Machine()
    active = _active(4, machine)
    active.limit = 1
    assert active.enter(_never)
    entered = threading.Event()

    def second() -> None:
        if active.enter(_never):
            entered.set()

    thread = threading.Thread(target=second)
    thread.start()
    assert not entered.wait(0.3)
    active.leave()
    assert entered.wait(10)
    thread.join(10)


def test_a_thread_standing_by_is_let_in_when_the_process_goes_idle():
    """The one working thread is stuck on a page that hangs: the process's CPU idles, and the
    thread standing by is let in at its next look, not when the stuck one returns."""
    machine = _Machine()
    active = _active(4, machine, window=0.01)
    active.limit = 1
    assert active.enter(_never)  # the stuck thread: it never leaves in this test
    entered = threading.Event()
    thread = threading.Thread(target=lambda: active.enter(_never) and entered.set())
    thread.start()
    machine.run(1.0, 0.0)
    assert entered.wait(10)
    assert active.limit == 2
    thread.join(10)


def test_a_thread_standing_by_ends_when_the_run_is_over():
    machine = _Machine()
    active = _active(2, machine)
    active.limit = 1
    assert active.enter(_never)
    over = threading.Event()
    answers: list[bool] = []
    thread = threading.Thread(target=lambda: answers.append(active.enter(over.is_set)))
    thread.start()
    over.set()
    active.wake()
    thread.join(10)
    assert answers == [False]
