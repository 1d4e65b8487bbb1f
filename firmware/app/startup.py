"""The boot screens: the notes (a chip that did not answer, a damaged save
set aside), then the saved game, offered to resume. Also reads the menu's
last choices.

Loaded at boot and unloaded before the menu (App.run), with saveread and
settings: their code is not in the heap during a game.
"""
from settings import MODE_NAMES, MODE_AI, Settings, rule_name
from controls import PLACE, BACK, MENU
import notes


def run(app):
    """-> the saved game the player resumes (saveread.Saved), or None."""
    st = Settings()
    st.load()
    app.choices = st.values
    import saveread
    saved, problem = saveread.load()
    if problem:
        app.notes.append(problem)
    for note in app.notes:
        notes.show(app, note)
    if saved is not None and offer_resume(app, saved):
        app.rule_name = rule_name(saved.rule)
        return saved
    return None


def offer_resume(app, saved):
    # saveread.decode let only the modes and rules the app writes in
    desc = MODE_NAMES[saved.mode]
    if saved.mode == MODE_AI:
        desc += " level %d, you %s" % (
            saved.level, "black" if saved.human == 1 else "white")
    n = len(saved.moves)
    notes.lines(app, ["Saved game found:", "", desc,
                      rule_name(saved.rule),
                      "%d move%s" % (n, "" if n == 1 else "s"), "",
                      "A: resume", "B: menu"])
    return app.wait_key((PLACE, BACK, MENU)) == PLACE
