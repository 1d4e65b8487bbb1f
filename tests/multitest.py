"""Two firmware instances side by side, in the style of MicroPython's
run-multitests.py: a test module defines `instance0(node)` and
`instance1(node)`, generator functions; `yield ms` sleeps that many
milliseconds; `node.radio` is the NRF24L01 driver on that instance's own
simulated chip; the return value is the instance's result.

    results = multitest.run(instance0, instance1, loss=0.3, seed=1)

In one process (run): cooperative stepping on the one virtual clock
(host_sim.match.Scheduler): the instance that wakes first runs next, the
clock jumps to its wake-up time, and both radio models keep working on the
sim clock while the other instance runs. Repeatable for a given seed.
`node.shared` is a dict both instances see (broadcast/wait by polling it).

Over UDP (run_udp): each instance in its own Python process, each with its
own radio on a host_sim.radio_medium.UdpMedium on 127.0.0.1, on the real-time
clock (sim_clock.set_real), as `make sim-pair` runs two handhelds. The
instances live in a module file; each process prints its result as JSON.
    python tests/multitest.py MODULE.py INDEX PORT PEER_PORT
"""
import json
import os
import socket
import subprocess
import sys
import time as _time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import host_sim.match as H  # noqa: E402
import sim_clock  # noqa: E402


def run(instance0, instance1, loss=0.0, dup=0.0, reorder=0.0, delay_us=0,
        seed=0, limit_ms=600000, medium=None):
    """Run both instances to their end; returns [result0, result1]."""
    if medium is None:
        medium = H.make_medium(loss, dup, reorder, delay_us, seed)
    shared = {}
    nodes = [H.Node(0, medium), H.Node(1, medium)]
    results = [None, None]
    sched = H.Scheduler()

    def wrap(i, fn):
        results[i] = yield from fn(nodes[i])
    for i, fn in enumerate((instance0, instance1)):
        nodes[i].shared = shared
        nodes[i].medium = medium
        sched.start("i%d" % i, wrap(i, fn))
    limit = sim_clock.now_us() + limit_ms * 1000
    while sched.step():
        if sim_clock.now_us() > limit:
            raise TimeoutError("multitest: instances still running after "
                               "%d simulated ms" % limit_ms)
    for n in nodes:
        assert n.model.violations == [], n.model.violations   # the datasheet's rules
    return results


def free_ports(n):
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def run_udp(module_path, timeout=120):
    """Both instances of a module file, one process each, over UDP."""
    p0, p1 = free_ports(2)
    procs = []
    for i, (me, peer) in enumerate(((p0, p1), (p1, p0))):
        procs.append(subprocess.Popen(
            [sys.executable, os.path.abspath(__file__),
             os.path.abspath(str(module_path)),
             str(i), str(me), str(peer)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=ROOT))
    results = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        if p.returncode != 0:
            for q in procs:
                q.kill()
            raise AssertionError("instance exited %d\n%s\n%s"
                                 % (p.returncode, out[-3000:], err[-3000:]))
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def _child(module_path, index, port, peer):
    import importlib.util
    from radio_medium import UdpMedium
    spec = importlib.util.spec_from_file_location("mt_instances", module_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, "instance%d" % index)
    sim_clock.reset()
    H.machine.forget_all()
    medium = UdpMedium(port, [peer], seed=index + 1)
    sim_clock.set_real(True)
    node = H.Node(index, medium)
    node.shared = {}
    node.medium = medium
    result = [None]

    def wrap():
        result[0] = yield from fn(node)
    sched = H.Scheduler()
    sched.start("i", wrap())
    deadline = _time.monotonic() + 100
    while sched.step():
        if _time.monotonic() > deadline:
            raise TimeoutError("instance %d still running" % index)
    # keep answering the peer a little longer: its last packets need ACKs
    end = _time.monotonic() + 1.0
    while _time.monotonic() < end:
        medium.pump(0.01)
    print(json.dumps(result[0]))


if __name__ == "__main__":
    _child(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
