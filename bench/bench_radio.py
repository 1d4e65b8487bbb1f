"""Wireless match figures on the simulated radio (virtual clock, repeatable):
move latency from send_move on one handheld to the stone on the other's
board, and radio packets on air per move, at 0% and 30% packet loss."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import host_sim.match as H  # noqa: E402
from budget import verdict  # noqa: E402

BUDGET = {0.0: (50, 250), 0.3: (100, 1000)}


def main():
    bad = 0
    for loss in (0.0, 0.3):
        lat = []
        moves = frames = acks = 0
        for seed in (1, 2, 3):
            r = H.MatchRun(games=3, loss=loss, seed=seed)
            s = r.run()
            if not s["finished"] or s["divergences"]:
                print("radio bench: match did not finish cleanly: %r" % s)
                return 1
            lat.extend(r.latency)
            moves += s["moves"]
            frames += r.medium.stats["frames"]
            acks += r.medium.stats["acks"]
        lat.sort()
        med = statistics.median(lat)
        p95 = H.percentile(lat, 95)
        bmed, bp95 = BUDGET[loss]
        ok = med <= bmed and p95 <= bp95
        print("radio move latency at %d%% loss: median %g ms, p95 %d ms over "
              "%d moves (budget: median <= %d, p95 <= %d) %s"
              % (loss * 100, med, p95, moves, bmed, bp95, verdict(ok)))
        print("radio packets on air per move at %d%% loss: %.1f (+ %.1f ESB "
              "ACKs; includes retransmissions and 300 ms status beacons)"
              % (loss * 100, frames / moves, acks / moves))
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
