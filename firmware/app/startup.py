"""The boot screens: the notes (a chip that did not answer, a damaged save
set aside, damaged settings), then the saved game, offered to resume. Also
reads the menu's last choices, and counts the boot in their file.

Loaded at boot and unloaded before the menu (App.run), with saveread and
settings: their code is not in the heap during a game.
"""
from settings import MODE_NAMES, MODE_AI, BOOTS, Settings, rule_name
from controls import PLACE, BACK, MENU
import notes


def run(app):
    """-> the saved game the player resumes (saveread.Saved), or None."""
    st = Settings()
    lost = []       # notes of what the player lost: shown until a key
    if not st.load() and st.damaged:
        lost.append("Settings damaged: the menu's defaults are used")
    # the AI's seeds count on from 64 a boot: the first game after a
    # power-on does not replay the first game of the one before
    boots = st.values[BOOTS]
    app.games = boots << 6
    st.values[BOOTS] = (boots + 1) & 0xFF
    st.save()
    app.choices = st.values
    import saveread
    saved, problem = saveread.load()
    if problem:
        lost.append(problem)
    for note in app.notes:
        notes.show(app, note)
    for note in lost:
        notes.show(app, note, until_key=True)
    app.notes = None            # shown: not kept for the run
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
                      "A: resume", "B: menu (a new game replaces it)"])
    return app.wait_key((PLACE, BACK, MENU)) == PLACE
