"""Records replay through the one rules engine: the report, positions at any action, and
``solve RECORD --action N`` agree, and a train that ran does not run again.

Figures come from the 18xx.games records in ``tests/data/records`` (see SOURCE.md there).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import routing
from engine.app.cli import cli, record_problem
from engine.app.report import game_before, replay
from engine.games import get_title
from engine.model.record import ReplayError

RECORDS = Path(__file__).parent / "data" / "records"
ALL = sorted(RECORDS.glob("*/*.json"))
GT_193 = RECORDS / "1846" / "10264.json"


def _run(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def reports():
    return {path: replay(path) for path in ALL}


def test_every_record_replays_to_its_result(reports):
    # 21 records: the replayed values and end reason are the record's own, every declared
    # route validates and every stored revenue equals the engine's score
    assert len(reports) == 21
    for path, report in reports.items():
        final = report.final
        assert final["matches_record"] is True, path.name
        assert report.summary["declared_not_validated"] == 0, path.name
        assert report.summary["revenue_mismatches"] == 0, path.name
        assert report.summary["optimum_below_declared"] == 0, path.name
        assert report.diverged_at is None
    assert sum(len(r.turns) for r in reports.values()) == 703


def test_a_train_that_ran_does_not_run_again_after_changing_owner(reports):
    # 10264, action 193: GT bought MS's 2-train, which had already run this operating round.
    # GT's own two 2-trains run: Detroit 50 + Windsor 40 = 90 and Port Huron 30 + Detroit 50 =
    # 80, so the optimum is 170 (the old record replayer ran all three 2-trains for 250).
    turn = next(t for t in reports[GT_193].turns if t.action_id == 193)
    assert (turn.company, turn.trains, turn.optimum, turn.optimal) == ("GT", ["2", "2"], 170, True)
    problem, _view, _label = record_problem(str(GT_193), 193, None)
    assert [t.name for t in problem.trains] == ["2", "2"]
    assert routing.solve(problem).total == 170


def test_solve_at_an_action_equals_the_report(reports):
    # first, middle and last run of every record: the CLI's position equals the report's
    for path, report in reports.items():
        turns = report.turns
        picked = turns[:1] + turns[len(turns) // 2 :][:1] + turns[-1:]
        for turn in {id(t): t for t in picked}.values():
            problem, _view, _label = record_problem(str(path), turn.action_id, None)
            solution = routing.solve(problem)
            assert solution.total == turn.optimum, (path.name, turn.action_id)


def test_solve_cli_on_a_record():
    result = _run("solve", GT_193, "--action", 193, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["total"] == 170


def test_positions_carry_cash_and_the_turn(tmp_path):
    # before action 193 GT has run nothing yet this turn; its treasury is the engine's
    rep = game_before(GT_193, 193)
    position = rep.game.turn_position("GT")
    assert position.cash == rep.game.cash("GT")
    assert position.turn is not None and position.turn["stage"] == "route"
    assert position.trains == ["2", "2"]
    assert "allow_west_west" in position.options  # the rule 18xx.games played it with


@pytest.mark.parametrize(
    "args, message",
    [
        (("--action", 99999), "no action 99999 in the record (actions: 1-563)"),
        (("--action", 193, "--company", "XX"), "unknown company 'XX'"),
        ((), "the game is over (bank)"),
    ],
)
def test_bad_record_arguments_name_the_item(args, message):
    result = _run("solve", GT_193, *args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_record_of_a_title_we_do_not_have(tmp_path):
    data = json.loads(GT_193.read_text())
    data["title"] = "1889"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    result = _run("replay", path)
    assert result.exit_code == 1
    assert "title '1889' is not supported" in result.output
    with pytest.raises(ReplayError, match="1889"):
        replay(path)


def test_a_refused_action_stops_the_replay_and_names_it(tmp_path):
    data = json.loads(GT_193.read_text())
    for action in data["actions"]:
        if action.get("id") == 193:
            action["routes"][0]["train"] = "7-0"  # GT owns no 7-train
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = _run("replay", path)
    assert result.exit_code == 1
    assert "action 193 (run_routes by GT)" in result.output
    lenient = replay(path, strict=False)
    assert lenient.diverged_at is not None
    assert any(t.diverged for t in lenient.turns)
    assert lenient.notes and "193" in lenient.notes[0]


def test_west_west_follows_the_rules_the_record_was_played_with():
    # 18xx.games allows West-West: records are played with allow_west_west; the seed's ban
    # stays the default for positions and games
    title = get_title("1846")
    assert title.options == ("allow_west_west",)
    report = replay(RECORDS / "1846" / "3099.json")
    assert report.rules == "allow_west_west"


def test_play_save_files_replay_through_the_same_path(tmp_path):
    from engine.games.bots import play_random

    for title, players, seed in (("1812", 3, 1), ("1842", 3, 2), ("1862", 4, 3)):
        game = play_random(title, players, seed=seed, max_actions=400_000).game
        path = tmp_path / f"{title}.json"
        path.write_text(game.save())
        report = replay(path)
        assert report.final["result"] == {k: int(v) for k, v in game.result().items()}
        # every run_routes action is a turn of the report, scored as the game paid it; a
        # bank-managed 1842 company also runs without an action (no turn then)
        runs = iter((e["entity"], e["revenue"]) for e in game.events if e["type"] == "run")
        assert report.turns
        assert all((t.company, t.scored) in runs for t in report.turns), title
        # history (a page with a drawn board) and batch (a row per run) read saves too
        page = tmp_path / f"{title}.html"
        result = _run("history", path, "-o", page, "--boards", 1, "--no-plots")
        assert result.exit_code == 0, result.output
        assert "1 boards" in result.output and page.stat().st_size > 1000
        table = tmp_path / f"{title}.csv"
        result = _run("batch", path, "--out", table, "--scheduler", "synchronous")
        assert result.exit_code == 0, result.output
        assert len(table.read_text().splitlines()) == len(report.turns) + 1


def test_the_engine_refuses_a_lay_off_the_network_and_a_second_lay(tmp_path):
    # 1846 222264: MS's first lay moved to E9, far from Detroit: not connected
    data = json.loads((RECORDS / "1846" / "222264.json").read_text())
    first = next(a for a in data["actions"] if a["type"] == "lay_tile")
    first.update(hex="E9", tile="9-0", rotation=0)
    with pytest.raises(ReplayError, match=rf"action {first['id']} \(lay_tile by MS\)"):
        replay(data, solve=False)
    # 1836Jr-30 2851: HSM lays a second tile in its turn (1 lay a turn)
    data = json.loads((RECORDS / "1836Jr30" / "2851.json").read_text())
    i = next(k for k, a in enumerate(data["actions"]) if a.get("id") == 35)  # HSM lays E7
    data["actions"].insert(i + 1, dict(data["actions"][i], id=10**6, hex="D8", tile="9-0"))
    with pytest.raises(ReplayError, match=r"action 1000000 \(lay_tile by HSM\)"):
        replay(data, solve=False)



def _moves(moves) -> set[tuple]:
    return {(m.kind, tuple(sorted((k, str(v)) for k, v in m.details.items()))) for m in moves}


def test_positions_in_progress_offer_only_what_the_company_can_still_do():
    # In 10264, at every lay, token and train action of a corporation: the position the
    # game exports there (cash, this turn's lays, tokens and purchases) lists exactly the
    # moves the live game allows, and no move costs more than the company's cash.
    from engine.app.analysis import candidate_moves
    from engine.app.report import open_replay
    from engine.games.positions import game_at_position

    rep = open_replay(GT_193)
    seen = {"tile": 0, "token": 0}
    checked = 0

    def look(i, raw):
        nonlocal checked
        game = rep.game
        if raw.get("type") not in ("lay_tile", "place_token") or i % 7 or game.finished:
            return
        t = game.or_turn if game.round.kind == "operating" else None
        if t is None or raw.get("entity") != t.op:
            return
        live = candidate_moves(game, ("tile", "token"))
        position = game.turn_position(t.op)
        exported = candidate_moves(game_at_position(position.to_dict()), ("tile", "token"))
        assert _moves(exported) == _moves(live), (raw.get("id"), t.op)
        for move in live:
            assert move.cost is None or move.cost <= position.cash, (raw.get("id"), move.label)
            seen[move.kind] += 1
        checked += 1

    for _step in rep.steps(before=look):
        pass
    assert checked >= 10 and seen["tile"] and seen["token"]


def test_analyse_cli_on_a_record_needs_the_operating_company():
    result = _run("analyse", GT_193, "--action", 193, "--company", "NYC")
    assert result.exit_code == 1
    assert "NYC is not operating there (operating: GT)" in result.output
    result = _run("analyse", GT_193, "--action", 190, "--kinds", "tile", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["company"] == "GT" and data["moves"]["tile"]


#: (title, players, seed): a seeded random game in which a company buys, from another
#: company, a train that already ran in this operating round (found by the steering below).
TRANSFERS = [("1846", 4, 0), ("1836Jr30", 4, 0), ("1836Jr56", 4, 0), ("1812", 3, 1),
             ("1842", 4, 0), ("1862", 4, 0)]  # fmt: skip


@pytest.mark.parametrize(("title", "players", "seed"), TRANSFERS, ids=[t[0] for t in TRANSFERS])
def test_a_bought_train_that_ran_does_not_run_again_this_round(title, players, seed):
    # Play random legal actions, but take the first purchase of another company's train
    # that has run this operating round.  After it the buyer owns the train, yet the train
    # may not run again before the next operating round: it is not among the buyer's
    # runnable trains, not in the position the engine solves, and the engine's optimum is
    # that of the buyer's other trains alone.
    import random

    from engine.games import new_game
    from engine.games.bots import choose

    rng = random.Random(seed)
    game = new_game(title, [f"P{i + 1}" for i in range(players)], seed)
    for _ in range(6000):
        legal = game.legal_actions()
        ran = [a for a in legal if a["type"] == "buy_train"
               and str(a.get("train")) in game.operated_trains
               and game.state.trains[str(a["train"])].owner not in ("depot", None, a["entity"])]
        if ran:
            break
        game.apply(choose(legal, rng))
    assert ran, f"{title}: no such purchase in this game"
    buy = ran[0]
    buyer, train = buy["entity"], str(buy["train"])
    game.apply(buy)
    assert game.state.trains[train].owner == buyer
    runnable = [c.id for c in game.runnable_trains(buyer)]
    assert train not in runnable
    position = game.turn_position(buyer)
    assert sorted(position.trains) == sorted(c.name for c in game.runnable_trains(buyer))
    revenue, _solution = game.optimal_run(buyer)
    if runnable:
        problem, _view = game.route_problem(buyer)
        assert len(problem.trains) == len(runnable)
        assert routing.solve(problem).total == revenue
    else:
        assert revenue == 0


def test_play_load_checks_the_title_and_bots_play_the_save_on(tmp_path):
    save = tmp_path / "g.json"
    result = _run("play", "1842", "--players", 3, "--seed", 2, "--bots", "--max-actions", 300,
                  "--save", save)  # fmt: skip
    # --max-actions stops the game with the standings, not an internal error
    assert result.exit_code == 0, result.output
    assert "game stopped (in progress) after 300 actions" in result.output
    # a save of another title than the one asked for is refused, naming both
    result = _run("play", "1846", "--load", save)
    assert result.exit_code == 1
    assert "the save is a game of 1842, not 1846" in result.output
    # --load --bots plays the loaded game on to its end
    result = _run("play", "--load", save, "--bots", "--seed", 5, "--save", save)
    assert result.exit_code == 0, result.output
    assert "game ended" in result.output
    assert len(json.loads(save.read_text())["actions"]) > 300


def test_every_run_solves_the_same_on_the_whole_board(reports):
    # At all 703 runs: `eighteen solve RECORD --action N` solves the company's runnable trains
    # on the whole map (route_problem(full_board=True)); the report takes the engine's own
    # optimum on the part its network reaches.  Both are exact, so they are equal.
    from engine.app.report import action_number, open_replay

    checked = 0
    for path, report in reports.items():
        optimum = {t.action_id: t.optimum for t in report.turns}
        rep = open_replay(path)

        def look(i, raw, rep=rep, optimum=optimum):
            nonlocal checked
            if raw.get("type") != "run_routes" or rep.game.finished:
                return
            problem, _view = rep.game.route_problem(str(raw["entity"]), full_board=True)
            assert routing.solve(problem).total == optimum[action_number(raw, i)]
            checked += 1

        for _step in rep.steps(before=look):
            pass
    assert checked == 703
