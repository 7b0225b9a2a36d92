#!/usr/bin/env python3
"""Tests of scripts/spsa's pure functions (no engine needed, well under a second).

    cd scripts && python3 -m unittest test_spsa -v
"""

import importlib.machinery
import importlib.util
import json
import os
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("spsa", os.path.join(HERE, "spsa"))
_spec = importlib.util.spec_from_loader("spsa", _loader)
spsa = importlib.util.module_from_spec(_spec)
_loader.exec_module(spsa)

# A real `sako match` output (2 games, nodes=2000) as the script's match call gives it.
MATCH_OUTPUT = """\
Started game 1 of 2 (plus vs minus)
Finished game 1 (plus vs minus): 1/2-1/2 {Draw by repetition}
Score of plus vs minus: 0 - 0 - 1  [0.500] 1
...      plus playing White: 0 - 0 - 1  [0.500] 1
...      plus playing Black: 0 - 0 - 0  [0.500] 0
...      White vs Black: 0 - 0 - 1  [0.500] 1
Elo difference: -0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %
Progress: 1 of 2 games (50%), 0:00:00 elapsed, about 0:00:00 left; fouls: plus: none; minus: none
Started game 2 of 2 (minus vs plus)
Finished game 2 (minus vs plus): 1-0 {White mates}
Score of plus vs minus: 0 - 1 - 1  [0.250] 2
...      plus playing White: 0 - 0 - 1  [0.500] 1
...      plus playing Black: 0 - 1 - 0  [0.000] 1
...      White vs Black: 1 - 0 - 1  [0.750] 2
Elo difference: -190.8 +/- nan, LOS: 15.9 %, DrawRatio: 50.0 %
Progress: 2 of 2 games (100%), 0:00:00 elapsed; fouls: plus: 1 illegal move; minus: none
Finished match
"""

UCI_ANSWER = """\
id name sako 0.1.0
id author the sako developers
option name UCI_Variant type combo default normal var chess var normal
option name Hash type spin default 64 min 1 max 65536
option name TuneLmrBase type spin default 75 min 0 max 200
option name Tune Futility Margin type spin default -30 min -100 max 100
option name TuneAspiration type spin min 5 max 50 default 16
option name TuneCheck type check default true
option name TuneNoMax type spin default 3 min 0
option name TuneWord type spin default x min 0 max 9
option name TuneOutside type spin default 12 min 0 max 9
option name TuneLmrBase type spin default 1 min 0 max 2
option name
option name TuneBare
uciok
""".splitlines()


def param(name="P", value=50.0, lo=0, hi=100, c_end=5.0, n=1000):
    a, c = spsa.param_constants(c_end, 0.002, n)
    return {"name": name, "value": value, "min": lo, "max": hi, "default": int(value),
            "c_end": c_end, "r_end": 0.002, "a": a, "c": c}


def state_of(params, n=1000, seed=7):
    opts = [{"name": p["name"], "default": p["default"], "min": p["min"], "max": p["max"]}
            for p in params]
    st = spsa.new_state(opts, n, seed, 0.05, 0.002, dict(spsa.DEFAULTS), "/bin/engine")
    for p, q in zip(st["params"], params):
        p["value"] = q["value"]
    return st


class Schedule(unittest.TestCase):
    def test_one_iteration(self):
        # N = 1: A = 0.1, c = c_end * 1^gamma = c_end, a = r_end c_end^2 (1.1)^alpha;
        # iteration 0: c_0 = c / 1 = c_end, a_0 = a / (1.1)^alpha = r_end c_end^2.
        self.assertAlmostEqual(spsa.big_a(1), 0.1)
        a, c = spsa.param_constants(5.0, 0.002, 1)
        self.assertAlmostEqual(c, 5.0)
        self.assertAlmostEqual(a, 0.05 * 1.1**0.602)
        a_k, c_k = spsa.step_sizes(a, c, 0.1, 0)
        self.assertAlmostEqual(c_k, 5.0)
        self.assertAlmostEqual(a_k, 0.05)

    def test_thousand_iterations(self):
        # N = 1000, c_end = 5 (a range of 100), r_end = 0.002: A = 100,
        # c = 5 * 1000^0.101 = 5 * 2.0090928 = 10.045464,
        # a = 0.002 * 25 * 1100^0.602 = 0.05 * 67.751419 = 3.3875710;
        # k = 0: c_0 = c, a_0 = a / 101^0.602 = 3.3875710 / 16.091683 = 0.2105169.
        self.assertAlmostEqual(spsa.big_a(1000), 100.0)
        a, c = spsa.param_constants(5.0, 0.002, 1000)
        self.assertAlmostEqual(c, 10.045464, places=5)
        self.assertAlmostEqual(a, 3.3875710, places=6)
        a_k, c_k = spsa.step_sizes(a, c, 100.0, 0)
        self.assertAlmostEqual(c_k, 10.045464, places=5)
        self.assertAlmostEqual(a_k, 0.2105169, places=6)
        # The last iteration ends at c_end and r_end c_end^2.
        a_k, c_k = spsa.step_sizes(a, c, 100.0, 999)
        self.assertAlmostEqual(c_k, 5.0)
        self.assertAlmostEqual(a_k, 0.05)
        # k = 9: c_9 = c / 10^0.101 = 10.045464 / 1.2618275 = 7.961044.
        self.assertAlmostEqual(spsa.step_sizes(a, c, 100.0, 9)[1], 7.961044, places=5)

    def test_c_end(self):
        self.assertAlmostEqual(spsa.c_end_of(0, 100, 0.05), 5.0)
        self.assertAlmostEqual(spsa.c_end_of(0, 4, 0.05), 0.5)  # 0.2 -> the floor 0.5
        self.assertAlmostEqual(spsa.c_end_of(-50, 50, 0.1), 10.0)

    def test_new_state_constants(self):
        st = spsa.new_state([{"name": "TuneX", "default": 40, "min": 0, "max": 100}],
                            1000, 3, 0.05, 0.002, dict(spsa.DEFAULTS), "/bin/e")
        p = st["params"][0]
        self.assertEqual((st["A"], st["k"], st["seed"]), (100.0, 0, 3))
        self.assertEqual((p["value"], p["c_end"]), (40.0, 5.0))
        self.assertAlmostEqual(p["c"], 10.045464, places=5)
        self.assertAlmostEqual(p["a"], 3.3875710, places=6)


class Perturbation(unittest.TestCase):
    def test_rounding(self):
        self.assertEqual(spsa.perturb(50.0, 2.4, 1, 0, 100), (52, 48))
        self.assertEqual(spsa.perturb(50.0, 2.6, -1, 0, 100), (47, 53))
        # Halves go away from zero (not Python's round-half-even).
        self.assertEqual(spsa.perturb(10.0, 2.5, 1, 0, 100), (13, 8))
        self.assertEqual(spsa.to_engine(-2.5, -10, 10), -3)
        self.assertEqual(spsa.to_engine(2.4999, -10, 10), 2)
        self.assertIsInstance(spsa.to_engine(3.0, 0, 9), int)

    def test_clamping(self):
        self.assertEqual(spsa.perturb(98.0, 5.0, 1, 0, 100), (100, 93))
        self.assertEqual(spsa.perturb(1.0, 5.0, 1, 0, 100), (6, 0))
        self.assertEqual(spsa.perturb(1.0, 5.0, -1, 0, 100), (0, 6))
        self.assertEqual(spsa.to_engine(-7.0, -5, 5), -5)


class Update(unittest.TestCase):
    def test_step(self):
        # theta += a_k R delta / c_k: 50 + 0.2 * 3 * 1 / 4 = 50.15.
        self.assertAlmostEqual(spsa.update(50.0, 0.2, 4.0, 3, 1, 0, 100), 50.15)
        self.assertAlmostEqual(spsa.update(50.0, 0.2, 4.0, 3, -1, 0, 100), 49.85)
        self.assertAlmostEqual(spsa.update(50.0, 0.2, 4.0, -2, -1, 0, 100), 50.1)
        self.assertEqual(spsa.update(50.0, 0.2, 4.0, 0, 1, 0, 100), 50.0)

    def test_clamped_and_float(self):
        self.assertEqual(spsa.update(99.9, 10.0, 1.0, 8, 1, 0, 100), 100.0)
        v = spsa.update(0.5, 10.0, 1.0, 8, -1, 0, 100)
        self.assertEqual(v, 0.0)
        self.assertIsInstance(v, float)

    def test_iterate(self):
        st = state_of([param("A", 50.0), param("B", 20.0, lo=-10, hi=30)])
        before = json.dumps(st)
        seen = {}

        def result_of(plus, minus):
            seen["plus"], seen["minus"] = plus, minus
            return 3, 1, 4, ("none", "1 time loss")

        new = spsa.iterate(st, result_of)
        self.assertEqual(json.dumps(st), before)  # the argument is left alone
        deltas = spsa.draw_deltas(7, 0, 2)
        for i, p in enumerate(st["params"]):
            a_k, c_k = spsa.step_sizes(p["a"], p["c"], st["A"], 0)
            hi, lo = spsa.perturb(p["value"], c_k, deltas[i], p["min"], p["max"])
            self.assertEqual(seen["plus"][i], (p["name"], hi))
            self.assertEqual(seen["minus"][i], (p["name"], lo))
            want = spsa.update(p["value"], a_k, c_k, 2, deltas[i], p["min"], p["max"])
            self.assertAlmostEqual(new["params"][i]["value"], want)
        self.assertEqual((new["k"], new["wins"], new["losses"], new["draws"]), (1, 3, 1, 4))
        self.assertEqual(new["history"], [{"k": 0, "R": 2, "wins": 3, "losses": 1, "draws": 4,
                                           "fouls": {"plus": "none", "minus": "1 time loss"}}])
        self.assertTrue(spsa.progress_line(new).startswith("1/1000  R=+2 (3-1-4)  A="))

    def test_history_keeps_fifty(self):
        st = state_of([param()], n=100)
        for _ in range(60):
            st = spsa.iterate(st, lambda plus, minus: (1, 1, 0, None))
        self.assertEqual(st["k"], 60)
        self.assertEqual(len(st["history"]), 50)
        self.assertEqual(st["history"][0]["k"], 10)
        self.assertEqual(st["history"][-1]["k"], 59)


class OptionLines(unittest.TestCase):
    def test_spin_options(self):
        got = spsa.parse_spin_options(UCI_ANSWER, "Tune")
        self.assertEqual(got, [
            {"name": "TuneLmrBase", "default": 75, "min": 0, "max": 200},
            {"name": "Tune Futility Margin", "default": -30, "min": -100, "max": 100},
            {"name": "TuneAspiration", "default": 16, "min": 5, "max": 50},
        ])

    def test_prefix(self):
        self.assertEqual([o["name"] for o in spsa.parse_spin_options(UCI_ANSWER, "Hash")],
                         ["Hash"])
        self.assertEqual(spsa.parse_spin_options(UCI_ANSWER, "Nothing"), [])
        self.assertEqual(len(spsa.parse_spin_options(UCI_ANSWER, "")), 4)

    def test_settings_line(self):
        params = [param("TuneA", 12.6), param("Tune B", -3.5, lo=-10, hi=10)]
        self.assertEqual(spsa.option_settings(params), "option.TuneA=13 'option.Tune B=-4'")


class ScoreLine(unittest.TestCase):
    def test_last_score_line(self):
        self.assertEqual(spsa.parse_score(MATCH_OUTPUT), (0, 1, 1, "plus", "minus"))
        self.assertEqual(spsa.parse_score("Score of plus vs minus: 0 - 0 - 2  [0.500] 2\n"),
                         (0, 0, 2, "plus", "minus"))
        self.assertEqual(spsa.parse_score("Score of a b vs c: 12 - 3 - 40  [0.582] 55"),
                         (12, 3, 40, "a b", "c"))

    def test_no_score_line(self):
        self.assertIsNone(spsa.parse_score("sako: unknown variant 'bogus'\n"))
        self.assertIsNone(spsa.parse_score(""))

    def test_fouls(self):
        self.assertEqual(spsa.parse_fouls(MATCH_OUTPUT), ("1 illegal move", "none"))
        self.assertIsNone(spsa.parse_fouls("Finished match\n"))

    def test_match_command(self):
        settings = {"pairs": 4, "each": "tc=2+0.02 timemargin=200", "concurrency": 2,
                    "variant": "normal", "openings": "/o/normal.epd"}
        argv = spsa.match_command("/bin/sako", [("TuneA", 3), ("Tune B", -1)],
                                  [("TuneA", 1), ("Tune B", 2)], settings, 99)
        text = " ".join(argv)
        self.assertEqual(argv[:2], ["/bin/sako", "match"])
        self.assertIn("-engine name=plus cmd=/bin/sako arg=uci proto=uci option.TuneA=3 "
                      "option.Tune B=-1 -engine name=minus", text)
        self.assertIn("option.Tune B=-1", argv)  # one argument, space and all
        self.assertIn("-each option.Threads=1 option.Hash=16 tc=2+0.02 timemargin=200 "
                      "-variant normal -games 2 -rounds 4 -repeat -concurrency 2 -recover "
                      "-openings file=/o/normal.epd format=epd order=random -srand 99", text)


class StateFile(unittest.TestCase):
    def test_round_trip(self):
        st = state_of([param("TuneA", 50.25), param("Tune B", -3.0, lo=-10, hi=10)])
        st = spsa.iterate(st, lambda plus, minus: (2, 0, 2, None))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.json")
            spsa.write_state(path, st)
            self.assertEqual(spsa.read_state(path), st)
            st2 = spsa.iterate(st, lambda plus, minus: (0, 1, 3, None))
            spsa.write_state(path, st2)  # replaces it
            self.assertEqual(spsa.read_state(path), st2)
            self.assertEqual(os.listdir(d), ["run.json"])  # no temporary file left

    def test_bad_files(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.json")
            with self.assertRaises(spsa.SpsaError):
                spsa.read_state(path)
            with open(path, "w") as f:
                f.write("{not json")
            with self.assertRaises(spsa.SpsaError):
                spsa.read_state(path)
            with open(path, "w") as f:
                json.dump({"k": 0}, f)
            with self.assertRaises(spsa.SpsaError):
                spsa.read_state(path)

    def test_csv(self):
        st = state_of([param("TuneA"), param("Tune B")])
        with tempfile.TemporaryDirectory() as d:
            path = spsa.csv_path(os.path.join(d, "run.json"))
            self.assertEqual(os.path.basename(path), "run.csv")
            header = spsa.csv_header(st)
            spsa.append_csv(path, None, header)
            spsa.append_csv(path, [1, 2, 3, 1, 0, "50.1", "49.9"], header)
            spsa.append_csv(path, [2, 0, 1, 1, 2, "50.1", "49.9"], header)
            with open(path) as f:
                self.assertEqual(f.read().splitlines(), [
                    "iteration,result,wins,losses,draws,TuneA,Tune B",
                    "1,2,3,1,0,50.1,49.9", "2,0,1,1,2,50.1,49.9"])


class Resume(unittest.TestCase):
    def test_same_deltas(self):
        self.assertEqual(spsa.draw_deltas(7, 5, 6), spsa.draw_deltas(7, 5, 6))
        self.assertTrue(all(d in (1, -1) for d in spsa.draw_deltas(7, 5, 100)))
        draws = {tuple(spsa.draw_deltas(7, k, 8)) for k in range(20)}
        self.assertGreater(len(draws), 10)  # k changes them
        self.assertNotEqual([spsa.draw_deltas(s, 0, 8) for s in range(5)],
                            [spsa.draw_deltas(0, 0, 8)] * 5)  # so does the seed
        self.assertEqual(spsa.match_seed(7, 5), spsa.match_seed(7, 5))
        self.assertNotEqual(spsa.match_seed(7, 5), spsa.match_seed(7, 6))

    def test_resumed_run_plays_the_same(self):
        """A run stopped after 3 iterations and continued from its state file plays
        iteration 3 as the uninterrupted run does."""
        def played(log):
            def result_of(plus, minus):
                log.append((plus, minus))
                return 1, 0, 1, None
            return result_of

        st = state_of([param("TuneA"), param("TuneB", 5.0, lo=0, hi=10, c_end=0.5)])
        straight = []
        s = st
        for _ in range(5):
            s = spsa.iterate(s, played(straight))
        resumed = []
        s = st
        for _ in range(3):
            s = spsa.iterate(s, played(resumed))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.json")
            spsa.write_state(path, s)
            s = spsa.read_state(path)
        for _ in range(2):
            s = spsa.iterate(s, played(resumed))
        self.assertEqual(resumed, straight)


if __name__ == "__main__":
    unittest.main()
