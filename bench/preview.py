#!/usr/bin/env python3
"""The live preview's latency and memory (docs/usage.md, "Live preview").

Starts `easel preview` (which runs easel-preview beside it) on a free port
with one small scene, subscribes to its event stream over a raw socket, and
saves the scene N times by rename (as most editors save), each time timing
save → the event of the finished render. Then opens 50 more subscribers,
saves 20 times 40 ms apart, and reads the server's resident memory and open
file descriptors from /proc: idle, with the pages open, and after they went
away (their connections close at the second write after they left).
Usage:
  bench/preview.py [--easel PATH] [--saves 20]
The default binary is the one bench/run builds (.build-install/release/easel).
"""
import argparse, json, os, re, socket, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = '<scene width="200" height="100"><rect x="0" y="0" width="200" height="100" fill="{}"/></scene>\n'


class Events:
    """A Server-Sent Events subscriber that undoes the chunked encoding."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.raw = b""
        self.text = ""
        while b"\r\n\r\n" not in self.raw:
            self.raw += self.sock.recv(65536)
        self.raw = self.raw.split(b"\r\n\r\n", 1)[1]

    def _chunk(self):
        while b"\r\n" not in self.raw:
            self.raw += self.sock.recv(65536)
        size_line, rest = self.raw.split(b"\r\n", 1)
        size = int(size_line, 16)
        while len(rest) < size + 2:
            rest += self.sock.recv(65536)
        self.raw = rest[size + 2:]
        return rest[:size].decode()

    def state(self):
        """The next scene state."""
        while True:
            while "\n\n" in self.text:
                block, self.text = self.text.split("\n\n", 1)
                data = [l[6:] for l in block.split("\n") if l.startswith("data: ")]
                if data:
                    return json.loads("\n".join(data))
            self.text += self._chunk()

    def close(self):
        self.sock.close()


def proc_status(pid):
    rss = int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read()).group(1))
    return rss / 1024, len(os.listdir(f"/proc/{pid}/fd"))


def save(path, colour):
    with open(path + ".tmp", "w") as f:
        f.write(SCENE.format(colour))
    os.rename(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--easel", default=os.path.join(ROOT, ".build-install/release/easel"))
    ap.add_argument("--saves", type=int, default=20)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="easel-preview-bench-")
    scene = os.path.join(folder, "card.scene.xml")
    save(scene, "#000000")
    server = subprocess.Popen([args.easel, "preview", scene, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"http://[^:]+:(\d+)/", server.stdout.readline()).group(1))
        events = Events(port)
        version = 0
        while True:
            s = events.state()
            if s["version"] >= 1 and not s["rendering"]:
                version = s["version"]
                break
        idle = proc_status(server.pid)
        latencies = []
        for i in range(args.saves):
            start = time.perf_counter()
            save(scene, "#%02x%02x60" % (i * 10 % 256, i * 5 % 256))
            version += 1
            while True:
                s = events.state()
                if s["version"] >= version and not s["rendering"]:
                    break
            latencies.append((time.perf_counter() - start) * 1000)
            time.sleep(0.1)
        latencies.sort()
        pages = [Events(port) for _ in range(50)]
        for i in range(20):
            save(scene, "#%02x4060" % (i * 12))
            time.sleep(0.04)
        time.sleep(1)
        with_pages = proc_status(server.pid)
        for p in pages:
            p.close()
        for colour in ("#808080", "#909090"):
            save(scene, colour)
            time.sleep(0.3)
        after = proc_status(server.pid)
        print(f"save → event, {args.saves} saves: min {latencies[0]:.1f} ms, median {latencies[len(latencies) // 2]:.1f} ms, "
              f"max {latencies[-1]:.1f} ms (30 ms of each is the wait that merges an editor's burst)")
        print(f"resident memory: {idle[0]:.1f} MB idle, {with_pages[0]:.1f} MB with 50 pages through 20 saves, "
              f"{after[0]:.1f} MB after they left")
        print(f"open descriptors: {idle[1]} idle, {with_pages[1]} with the pages, {after[1]} after")
        events.close()
    finally:
        server.send_signal(2)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
