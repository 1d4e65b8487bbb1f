"""A MicroPython 'board' on a serial link, for deploying with mpremote.

The MicroPython unix port runs its REPL (raw REPL included, as mpremote
uses it) on a pseudo-terminal, with its VFS root remounted onto a host
folder, `flash`: what mpremote writes to `:lib/x.mpy` lands in
`flash/lib/x.mpy`. The pty is offered to mpremote as
`socket://127.0.0.1:<port>` (pyserial's URL form), one connection at a
time, so a deploy needs no real device:

    with SerialBoard(flash_dir) as b:
        subprocess.run(["mpremote", "connect", b.url, "fs", "ls", ":"])

What differs from a board: a pty and TCP instead of USB CDC, the unix port
instead of rp2/esp32, a host folder instead of LittleFS/FAT; `reset`
ends the process (there is nothing to reboot).
"""
import os
import pty
import select
import socket
import subprocess
import threading
import tty

from upy import micropython_binary

_MOUNT = ("import vfs, os\n"
          "vfs.umount('/')\n"
          "vfs.mount(vfs.VfsPosix(%r), '/')\n"
          "os.chdir('/')\n")


class SerialBoard:
    def __init__(self, flash_dir):
        self.flash = str(flash_dir)
        self.log = bytearray()      # everything the board sent

    def __enter__(self):
        master, slave = pty.openpty()
        tty.setraw(slave)
        self.proc = subprocess.Popen(
            [micropython_binary(), "-i", "-c", _MOUNT % self.flash],
            stdin=slave, stdout=slave, stderr=slave, close_fds=True,
            env=dict(os.environ, MICROPYPATH=""))
        os.close(slave)
        self.master = master
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.server.getsockname()[1]
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        return self

    def _serve(self):
        while not self.stop:
            r, _, _ = select.select([self.server, self.master], [], [], 0.1)
            if self.master in r and not self._drain():
                return
            if self.server in r:
                conn, _ = self.server.accept()
                self._bridge(conn)

    def _drain(self):
        try:
            data = os.read(self.master, 4096)
        except OSError:
            return False
        self.log += data
        return bool(data)

    def _bridge(self, conn):
        with conn:
            while not self.stop:
                r, _, _ = select.select([conn, self.master], [], [], 0.1)
                if conn in r:
                    data = conn.recv(4096)
                    if not data:
                        return
                    os.write(self.master, data)
                if self.master in r:
                    try:
                        data = os.read(self.master, 4096)
                    except OSError:
                        return
                    if not data:
                        return
                    self.log += data
                    conn.sendall(data)

    def __exit__(self, *exc):
        self.stop = True
        self.thread.join(5)
        self.server.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        os.close(self.master)
