# Runs one command and writes its exact cost as JSON: the child's user and system CPU time, wall
# time from spawn to exit and peak RSS, from wait4(2). GNU time prints CPU time in hundredths of a
# second, too coarse beside a 40 ms `node -e 0`; wait4 gives microseconds. The rusage covers the
# child and every descendant it waited for (a git it ran counts), not a detached one.
# usage: python3 rusage.py OUT.json TIMEOUT_S PROGRAM [ARG...]   (TIMEOUT_S 0: none)
# On timeout the child's process group is killed and "timed_out" is true. Exit code: the child's.
import json
import os
import signal
import sys
import time

out, timeout, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
timed_out = False
start = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ, setpgroup=0)


def on_alarm(*_):
    global timed_out
    timed_out = True
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


if timeout > 0:
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
signal.setitimer(signal.ITIMER_REAL, 0)
code = os.waitstatus_to_exitcode(status)
with open(out, 'w') as f:
    json.dump({'wall_ms': wall * 1000, 'user_ms': ru.ru_utime * 1000, 'sys_ms': ru.ru_stime * 1000,
               'peak_rss_kb': ru.ru_maxrss, 'code': code, 'timed_out': timed_out}, f)
sys.exit(code if code >= 0 else 128 - code)
