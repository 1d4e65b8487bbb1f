"""The ways into a wireless match from the app: host or join one, or take up
the one saved. Loaded only for them. The match's own modules (wireless,
match, link, the radio driver) load once a match starts, and match and link
also at boot to check a saved match: a game against the AI or a friend
never holds radio code.
"""
import sys
from micropython import const
import savegame
from settings import rule_name
from controls import PLACE, BACK, MENU
import notes

_SAVE_MAX = const(300)      # bytes read: a match's snapshot is at most 246


def check_snapshot(blob):
    """A match snapshot's check: of recover()'s temporary file, and of the
    saved match before the player is offered it."""
    import match
    match.check_snapshot(blob)


def offer_saved(app):
    """At boot: a saved match, if there is one, to resume or forget."""
    import saveread     # here: a match begun from the menu does not hold it
    blob = saveread.recover(savegame.MATCH_TMP, savegame.MATCH,
                            check_snapshot, _SAVE_MAX)
    if blob is None:
        return
    try:
        check_snapshot(blob)        # recover() checked only a temp file
    except ValueError as e:
        notes.show(app, saveread.set_aside("match", e, savegame.MATCH,
                                         savegame.MATCH_BAD), until_key=True)
        return
    notes.lines(app, ["Wireless match saved", "", "A: resume it",
                      "B: forget it"])
    if app.wait_key((PLACE, BACK)) == PLACE:    # only B deletes it
        play(app, blob)
    else:
        import wireless
        wireless.forget()
        # the peer is told, as when a player leaves a game, and does not
        # wait on a lost link (best effort: it may be off)
        try:
            import match
            match.Match.restore(_radio(), blob).close()
        except (OSError, ValueError):
            pass        # no radio, or moves that do not replay: no one to tell


def play(app, blob=None):
    """A wireless match (blob: a saved one to resume)."""
    host = True
    if blob is None:
        # the host's rule is the match's: a joiner's own does not apply
        notes.lines(app, ["Wireless match", "",
                          "A: host a game (%s)" % rule_name(app.rule),
                          "B: join a game (the host's rule)", "",
                          "X: back"])
        ev = app.wait_key((PLACE, BACK, MENU))
        if ev == MENU:
            return
        host = ev == PLACE
    try:
        radio = _radio()
    except (OSError, ValueError) as e:
        notes.show(app, "Radio: %s" % (e,))
        return
    import wireless
    try:
        # app.human: the colour the menu's Black line gives the player
        wireless.Wireless(app, radio).run(host, app.rule, app.human, blob)
    finally:
        app.other = "AI"


def _radio():
    # the radio driver, built by hw_setup: in a frame of its own, so that
    # no name holds the boot code once it is out of sys.modules
    import hw_setup
    try:
        return hw_setup.make_radio()
    finally:
        sys.modules.pop("hw_setup", None)
