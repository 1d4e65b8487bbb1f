"""The simulated handheld in a pygame window: the LCD scaled up, the
device's buttons drawn under it (click them), keys and mouse for the rest.

Keys: arrows tilt the device while held; Enter/space place, Backspace back,
M menu, E extra, I/J/K/L joystick up/left/down/right, O joystick press,
P saves a PNG, Esc or closing the window quits. Dragging the mouse on the
screen tilts the device towards the drag (right = tilt right, up = tilt
forward); letting go levels it.
"""
import os

from host_sim import save_screen

# pygame greets on import; the simulator's console is for the firmware
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_TILT_DEG = 20.0
_DRAG_DEG_PER_PX = 0.25
_FRAME_S = 1 / 30
_BG = (38, 40, 48)
_KEYCAP = (70, 74, 88)
_KEYCAP_DOWN = (150, 160, 190)
_LABEL = (230, 230, 235)

# key name -> (label, key hint)
_BUTTON_TEXT = {"place": ("A place", "Enter"), "back": ("B back", "Bksp"),
                "menu": ("X menu", "M"), "extra": ("Y", "E"),
                "up": ("^", "I"), "down": ("v", "K"), "left": ("<", "J"),
                "right": (">", "L"), "press": ("o", "O")}
# a button's keys on the help line, for a board that has it
_BUTTON_HELP = (("up", "IJKL: joystick"), ("press", "O: press"),
                ("place", "Enter: place"), ("back", "Bksp: back"),
                ("menu", "M: menu"), ("extra", "E: extra"))
_LINE_H = 20


def display_available():
    """True when a pygame window can open here ($DISPLAY/Wayland or SDL)."""
    driver = os.environ.get("SDL_VIDEODRIVER")
    if driver in ("dummy", "offscreen"):
        return False
    if driver:
        return True         # the user chose an SDL video driver
    if os.name == "nt" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def help_line(names, tilt):
    """The keys of this board's buttons, the tilt's if it has a
    gyroscope, and those of the window itself."""
    hints = ["arrows/drag: tilt"] if tilt else []
    hints += [hint for name, hint in _BUTTON_HELP if name in names]
    return "  ".join(hints + ["P: PNG", "Esc: quit"])


def wrap(text, width, text_width):
    """text in lines no wider than width (as text_width measures them),
    broken between its hints, two spaces apart; a longer hint stays whole."""
    lines = []
    for hint in text.split("  "):
        if lines and text_width(lines[-1] + "  " + hint) <= width:
            lines[-1] += "  " + hint
        else:
            lines.append(hint)
    return lines


def layout(names, lcd_w, lcd_h, scale, margin=16):
    """Rectangles (x, y, w, h) for the screen and each button below it:
    joystick on the left, the keys on the right."""
    screen = (margin, margin, lcd_w * scale, lcd_h * scale)
    top = margin * 2 + lcd_h * scale
    size = 44
    rects = {}
    pad = {"up": (1, 0), "left": (0, 1), "press": (1, 1), "right": (2, 1),
           "down": (1, 2)}
    for name, (cx, cy) in pad.items():
        if name in names:
            rects[name] = (margin + cx * (size + 4), top + cy * (size + 4),
                           size, size)
    right = margin + screen[2]
    keys = [n for n in ("place", "back", "menu", "extra") if n in names]
    keys += sorted(n for n in names if n not in rects and n not in keys)
    kw = 96
    for i, name in enumerate(keys):
        col, row = i % 2, i // 2
        rects[name] = (right - (2 - col) * (kw + 6), top + row * (size + 8),
                       kw, size)
    # and three status lines: the tilt, the help in one or two
    height = top + 3 * (size + 4) + margin + 3 * _LINE_H
    width = max(screen[0] + screen[2] + margin, 3 * (size + 4) + 2 * (kw + 6)
                + 3 * margin)
    return screen, rects, (width, height)


class WindowView:
    def __init__(self, device, scale=2, shots_dir="."):
        import pygame
        self.pg = pygame
        self.device = device
        self.scale = scale
        self.shots_dir = shots_dir
        pygame.display.init()     # no audio: nothing to play, no ALSA noise
        driver = pygame.display.get_driver()
        if (driver in ("offscreen", "dummy")
                and os.environ.get("SDL_VIDEODRIVER") != driver):
            # SDL found no display and fell back by itself to a driver that
            # shows nothing: the run would go on with no window at all
            pygame.display.quit()
            raise pygame.error(
                "no display (SDL fell back to its %r driver, which shows "
                "nothing); use --terminal or --headless (two handhelds: "
                "make sim-pair-tmux)" % driver)
        pygame.font.init()
        lcd = device.lcd
        self.screen_rect, self.rects, size = layout(
            device.buttons.pins, lcd.width, lcd.height, scale)
        self.win = pygame.display.set_mode(size)
        pygame.display.set_caption("Gomoku handheld (%s)" % device.board.NAME)
        self.font = pygame.font.Font(None, 20)
        self.hand = device.hand() if device.tilt_source is not None else None
        self.held = set()           # buttons held down by mouse or key
        self.mouse_button = None    # the button the mouse holds down
        self.keys_tilt = set()
        self.drag = None
        self._last = 0.0
        self.message = help_line(device.buttons.pins, self.hand is not None)
        self._keymap = {
            pygame.K_RETURN: "place", pygame.K_KP_ENTER: "place",
            pygame.K_SPACE: "place", pygame.K_BACKSPACE: "back",
            pygame.K_m: "menu", pygame.K_e: "extra", pygame.K_i: "up",
            pygame.K_k: "down", pygame.K_j: "left", pygame.K_l: "right",
            pygame.K_o: "press"}
        self._arrows = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0),
                        pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}

    # ---- input ----------------------------------------------------------------
    def _press(self, name):
        if name in self.device.buttons.pins and name not in self.held:
            self.held.add(name)
            self.device.press(name)

    def _release(self, name):
        if name in self.held:
            self.held.discard(name)
            self.device.let_go(name)    # a quick tap still reaches the game

    def _update_tilt(self):
        if self.hand is None:
            return
        if self.drag is not None:
            (x0, y0), (x1, y1) = self.drag
            self.hand.hold((x1 - x0) * _DRAG_DEG_PER_PX,
                           (y0 - y1) * _DRAG_DEG_PER_PX)
            return
        r = sum(self._arrows[k][0] for k in self.keys_tilt)
        f = sum(self._arrows[k][1] for k in self.keys_tilt)
        self.hand.hold(r * _TILT_DEG, f * _TILT_DEG)

    def _hit(self, pos):
        for name, (x, y, w, h) in self.rects.items():
            if x <= pos[0] < x + w and y <= pos[1] < y + h:
                return name
        return None

    def _in_screen(self, pos):
        x, y, w, h = self.screen_rect
        return x <= pos[0] < x + w and y <= pos[1] < y + h

    def save_png(self):
        self.message = "saved " + save_screen(self.device, self.shots_dir)

    def events(self):
        pg = self.pg
        for ev in pg.event.get():
            if ev.type == pg.QUIT or (ev.type == pg.KEYDOWN
                                      and ev.key == pg.K_ESCAPE):
                self.device.stop()
            elif ev.type == pg.KEYDOWN:
                if ev.key in self._arrows:
                    self.keys_tilt.add(ev.key)
                    self._update_tilt()
                elif ev.key in self._keymap:
                    self._press(self._keymap[ev.key])
                elif ev.key == pg.K_p:
                    self.save_png()
            elif ev.type == pg.KEYUP:
                if ev.key in self._arrows:
                    self.keys_tilt.discard(ev.key)
                    self._update_tilt()
                elif ev.key in self._keymap:
                    self._release(self._keymap[ev.key])
            elif ev.type == pg.MOUSEBUTTONDOWN and ev.button == 1:
                name = self._hit(ev.pos)
                if name:
                    self._press(name)
                    self.mouse_button = name
                elif self._in_screen(ev.pos):
                    self.drag = (ev.pos, ev.pos)
            elif ev.type == pg.MOUSEMOTION and self.drag is not None:
                self.drag = (self.drag[0], ev.pos)
                self._update_tilt()
            elif ev.type == pg.MOUSEBUTTONUP and ev.button == 1:
                if self.mouse_button:
                    self._release(self.mouse_button)
                    self.mouse_button = None
                if self.drag is not None:
                    self.drag = None
                    self._update_tilt()

    # ---- drawing ----------------------------------------------------------------
    def draw(self):
        from host_sim import device as dev
        pg = self.pg
        self.win.fill(_BG)
        im = dev.frame_image(self.device.lcd)
        surf = pg.image.frombuffer(im.tobytes(), im.size, "RGB")
        x, y, w, h = self.screen_rect
        self.win.blit(pg.transform.scale(surf, (w, h)), (x, y))
        pg.draw.rect(self.win, (10, 10, 12), (x - 3, y - 3, w + 6, h + 6), 3)
        for name, (bx, by, bw, bh) in self.rects.items():
            down = name in self.held or self.device.buttons.is_pressed(name)
            pg.draw.rect(self.win, _KEYCAP_DOWN if down else _KEYCAP,
                         (bx, by, bw, bh), border_radius=8)
            label, hint = _BUTTON_TEXT.get(name, (name, ""))
            ink = (20, 20, 30) if down else _LABEL
            t = self.font.render(label, True, ink)
            self.win.blit(t, (bx + (bw - t.get_width()) // 2, by + 6))
            t = self.font.render(hint, True, (60, 60, 80) if down
                                 else (170, 170, 180))
            self.win.blit(t, (bx + (bw - t.get_width()) // 2, by + bh - 18))
        if self.hand is not None:
            r, f = self.hand.angle
            tilt = "tilt right %+.0f\u00b0 forward %+.0f\u00b0" % (r, f)
        else:
            tilt = "no gyroscope"
        lines = [tilt] + self.message_lines()
        for k, line in enumerate(lines):
            t = self.font.render(line, True, _LABEL)
            self.win.blit(t, (x, self.win.get_height() - 3 * _LINE_H - 2
                              + _LINE_H * k))
        pg.display.flip()

    def message_lines(self):
        """The help (or what P saved) in lines that fit the window."""
        width = self.win.get_width() - 2 * self.screen_rect[0]
        return wrap(self.message, width, lambda t: self.font.size(t)[0])

    def _hook(self, now_us):
        import time
        t = time.monotonic()
        if t - self._last < _FRAME_S:
            return
        self._last = t
        self.events()
        self.draw()

    def run(self, script=None):
        try:
            return self.device.run_live(self._hook, script)
        finally:
            self.pg.quit()
