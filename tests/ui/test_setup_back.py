"""Every setup answer stays changeable until the race starts: BACK on the race's first
screen (the summary) goes back to the last question, the race taken back without a trace."""

from companion.ui.wizard import Wizard
from companion.ui import flow
from tests.table import make_app, press


def words(frame) -> str:
    """Every text of a frame (its title, body and footer) as one string."""
    parts = [frame.title, frame.status, frame.footer]
    for w in frame.body:
        parts += [str(getattr(w, a, "")) for a in ("text", "label", "value", "caption")]
        parts += list(getattr(w, "items", ()) or ())
    return " | ".join(parts)


def lap_counter_summary(app):
    wizard = Wizard("laps")
    app.push(wizard)
    for _ in range(20):
        if not isinstance(app.screen, (Wizard,)) and type(app.screen).__name__ != "Players":
            break
        press(app, "GO")
    assert isinstance(app.screen, flow.Race)
    if app.toast:                     # "No printer configured": BACK closes the message
        press(app, "BACK")
    return app


def test_back_on_the_summary_asks_the_last_question_again_and_keeps_every_answer(state_dir):
    app = lap_counter_summary(make_app(state_dir))
    summary = words(app.frame())
    assert "GO starts the race" in summary and "10 laps" in summary
    press(app, "BACK")
    assert isinstance(app.screen, Wizard), words(app.frame())
    assert app.runner is None and app.journal.sessions() == []     # the race taken back, no trace
    wizard = app.screen
    assert wizard.step == len(wizard.questions(app)) - 1           # the last question
    press(app, "BACK BACK")                                         # back to the race length
    assert wizard.current(app).option.key == "length" and "10" in words(app.frame())
    press(app, "UP UP")                                             # 12 laps
    for _ in range(20):
        if isinstance(app.screen, flow.Race):
            break
        press(app, "GO")
    if app.toast:
        press(app, "BACK")
    assert "12 laps" in words(app.frame())
    assert len(app.journal.sessions()) == 1


def test_once_the_race_has_started_back_pauses_it(state_dir):
    app = lap_counter_summary(make_app(state_dir))
    press(app, "GO")                                                # the race starts
    press(app, "BACK")
    assert app.frame().title == "Paused"
