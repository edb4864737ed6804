// tl-net: the lab's network tool, one static binary copied into any container of a stack.
//
//	tl-net rtt   -to HOST:PORT [-n 50] [-echo]   round trips, as JSON
//	tl-net echo  -listen :PORT                   send back what arrives (the other end of -echo)
//	tl-net send  -to HOST:PORT [-bytes N]        bytes pushed to a sink, and the rate, as JSON
//	tl-net sink  -listen :PORT                   accept and discard (the other end of send)
//	tl-net delay -route :PORT=HOST:PORT ...      a TCP proxy that adds a delay and caps the
//	                                             rate, both set at runtime
//	tl-net set   [-delay-us N] [-rate-kbit N]    set a running proxy's delay or rate cap (0:
//	                                             none); prints its state
//	tl-net get                                   a running proxy's state, as JSON
//
// rtt times the TCP handshake by default (connect returns once the SYN-ACK is back: one round
// trip, answered by the kernel, with no server code in it, so any listening port will do, but
// it ends at the first hop); with -echo it times one byte sent and echoed on one open
// connection, the round trip through every proxy in the path to an echo server.
//
// Why a proxy and not the kernel: this machine's kernel has no netem queueing discipline, so an
// added delay has to be added by a process in the path. The proxy delays each chunk by half
// the round-trip delay in each direction, keeping order. With a rate cap it is a link of that
// rate in each direction, shared by all its connections as one wire is: a chunk leaves once
// the chunks before it have been sent at the rate, and the proxy stops reading while more than
// a few milliseconds of data wait for the wire, so TCP's flow control slows the sender as a
// full switch buffer would (tbf would do this in the kernel, but only for what leaves a
// container, and the proxy is already in the path). All its routes share the one delay and
// the one link, so an echo route and a sink route beside the database's measure what the
// database's connections get.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const control = "127.0.0.1:8475" // the proxy's control address, inside its container

func main() {
	if len(os.Args) < 2 {
		fail("usage: tl-net rtt|send|sink|delay|set|get [flags]")
	}
	flags := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	to := flags.String("to", "", "HOST:PORT to reach")
	listen := flags.String("listen", "", ":PORT to listen on")
	n := flags.Int("n", 50, "round trips")
	echo := flags.Bool("echo", false, "time an echoed byte instead of the handshake")
	var routes routeList
	flags.Var(&routes, "route", "LISTEN=HOST:PORT, one per route (delay)")
	size := flags.Int64("bytes", 32<<20, "bytes to send")
	delayUs := flags.Int64("delay-us", 0, "the round trip's added delay, in microseconds")
	rateKbit := flags.Int64("rate-kbit", 0, "the link's rate in each direction, kbit/s (0: none)")
	flags.Parse(os.Args[2:])
	given := map[string]bool{}
	flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch os.Args[1] {
	case "rtt":
		need(*to != "", "rtt needs -to HOST:PORT")
		rtt(*to, *n, *echo)
	case "send":
		need(*to != "", "send needs -to HOST:PORT")
		send(*to, *size)
	case "sink":
		need(*listen != "", "sink needs -listen :PORT")
		sink(*listen)
	case "echo":
		need(*listen != "", "echo needs -listen :PORT")
		serve(*listen, func(conn net.Conn) { io.Copy(conn, conn) })
	case "delay":
		need(len(routes) > 0, "delay needs at least one -route :PORT=HOST:PORT")
		proxy(routes, *delayUs, *rateKbit)
	case "set":
		need(given["delay-us"] || given["rate-kbit"], "set needs -delay-us N or -rate-kbit N")
		if given["delay-us"] {
			call(http.MethodPut, "/delay?us="+strconv.FormatInt(*delayUs, 10))
		}
		if given["rate-kbit"] {
			call(http.MethodPut, "/rate?kbit="+strconv.FormatInt(*rateKbit, 10))
		}
	case "get":
		call(http.MethodGet, "/delay")
	default:
		fail("unknown command " + os.Args[1] + "; allowed: rtt, echo, send, sink, delay, set, get")
	}
}

func need(ok bool, message string) {
	if !ok {
		fail(message)
	}
}

func fail(message string) {
	fmt.Fprintln(os.Stderr, "tl-net: "+message)
	os.Exit(2)
}

func emit(v any) {
	out, _ := json.Marshal(v)
	fmt.Println(string(out))
}

// -- measuring -------------------------------------------------------------------------------

type routeList []string

func (r *routeList) String() string     { return fmt.Sprint(*r) }
func (r *routeList) Set(v string) error { *r = append(*r, v); return nil }

func rtt(to string, n int, echo bool) {
	samples := make([]float64, 0, n)
	var conn net.Conn
	var err error
	if echo {
		if conn, err = net.DialTimeout("tcp", to, 5*time.Second); err != nil {
			fail(err.Error())
		}
		defer conn.Close()
	}
	one := []byte{1}
	for i := 0; i < n; i++ {
		began := time.Now()
		if echo {
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err = conn.Write(one); err == nil {
				_, err = io.ReadFull(conn, one)
			}
			if err != nil {
				fail("echo through " + to + ": " + err.Error())
			}
		} else {
			handshake, err := net.DialTimeout("tcp", to, 5*time.Second)
			if err != nil {
				fail(err.Error())
			}
			handshake.Close()
		}
		samples = append(samples, float64(time.Since(began).Nanoseconds())/1000)
	}
	sort.Float64s(samples)
	at := func(q float64) float64 { return samples[int(q*float64(len(samples)-1)+0.5)] }
	emit(map[string]any{"to": to, "n": n, "echo": echo, "min_us": samples[0],
		"median_us": at(0.5), "p90_us": at(0.9), "max_us": samples[len(samples)-1]})
}

func send(to string, size int64) {
	conn, err := net.DialTimeout("tcp", to, 5*time.Second)
	if err != nil {
		fail(err.Error())
	}
	began := time.Now()
	sent, err := io.CopyN(conn, zeros{}, size)
	if err != nil {
		fail(err.Error())
	}
	conn.(*net.TCPConn).CloseWrite()
	io.Copy(io.Discard, conn) // the sink closes once it has read everything
	seconds := time.Since(began).Seconds()
	emit(map[string]any{"to": to, "bytes": sent, "seconds": seconds,
		"mbit_s": float64(sent) * 8 / seconds / 1e6})
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func sink(listen string) {
	serve(listen, func(conn net.Conn) { io.Copy(io.Discard, conn) })
}

func serve(listen string, handle func(net.Conn)) {
	l, err := net.Listen("tcp", listen)
	if err != nil {
		fail(err.Error())
	}
	for {
		conn, err := l.Accept()
		if err != nil {
			continue
		}
		go func() { handle(conn); conn.Close() }()
	}
}

// -- the delaying proxy ----------------------------------------------------------------------

type state struct {
	delay       atomic.Int64 // the round trip's added delay, microseconds
	rate        atomic.Int64 // the link's rate in each direction, kbit/s; 0: no cap
	up, down    wire         // client -> server, server -> client: one link each way
	connections atomic.Int64 // open now
	accepted    atomic.Int64
	bytes       atomic.Int64
}

func (s *state) report() map[string]any {
	return map[string]any{"delay_us": s.delay.Load(), "rate_kbit": s.rate.Load(),
		"connections": s.connections.Load(), "accepted": s.accepted.Load(),
		"bytes": s.bytes.Load()}
}

// wire is one direction of a capped link: the time it is free to send the next chunk.
type wire struct {
	sync.Mutex
	free time.Time
}

// backlog is how much data may wait for a capped wire before the proxy stops reading: a
// switch port's buffer of a few milliseconds, so the sender's TCP sees the link's rate instead
// of an unbounded buffer that would hide it.
const backlog = 5 * time.Millisecond

// send books n bytes on the wire at the rate, from ready on; returns when they have left it.
func (w *wire) send(n int, kbit int64, ready time.Time) time.Time {
	w.Lock()
	defer w.Unlock()
	if w.free.Before(ready) {
		w.free = ready
	}
	w.free = w.free.Add(time.Duration(int64(n) * 8 * int64(time.Millisecond) / kbit))
	return w.free
}

// chunkSize is how much a pipe reads at once: 32 KiB, or a millisecond of a capped link (at
// least one Ethernet frame's payload), so that the cap paces the data smoothly.
func chunkSize(kbit int64) int {
	if kbit <= 0 {
		return 32 << 10
	}
	return min(32<<10, max(1460, int(kbit/8)))
}

func proxy(routes []string, delayUs, rateKbit int64) {
	s := &state{}
	s.delay.Store(delayUs)
	s.rate.Store(rateKbit)
	for _, route := range routes {
		listen, to, ok := strings.Cut(route, "=")
		need(ok && listen != "" && to != "", "a route is LISTEN=HOST:PORT, not "+route)
		l, err := net.Listen("tcp", listen)
		if err != nil {
			fail(err.Error())
		}
		fmt.Printf("tl-net: delaying %s -> %s by %d us, rate cap %d kbit/s\n", listen, to,
			delayUs, rateKbit)
		go forward(s, l, to)
	}
	controlServer(s)
}

func forward(s *state, l net.Listener, to string) {
	for {
		client, err := l.Accept()
		if err != nil {
			continue
		}
		go func() {
			server, err := net.DialTimeout("tcp", to, 10*time.Second)
			if err != nil {
				client.Close()
				return
			}
			s.accepted.Add(1)
			s.connections.Add(1)
			var done sync.WaitGroup
			done.Add(2)
			go func() { pipe(s, client, server, &s.up); done.Done() }()
			go func() { pipe(s, server, client, &s.down); done.Done() }()
			done.Wait()
			s.connections.Add(-1)
		}()
	}
}

type chunk struct {
	data []byte
	due  time.Time
}

// pipe copies from src to dst, each chunk written half the round trip's delay after it was
// read and, with a rate cap, once the wire has sent it, in order; the delay and the rate are
// read per chunk, so a change takes effect at once.
func pipe(s *state, src, dst net.Conn, link *wire) {
	queue := make(chan chunk, 4096)
	go func() {
		defer close(queue)
		for {
			kbit := s.rate.Load()
			buffer := make([]byte, chunkSize(kbit))
			n, err := src.Read(buffer)
			if n > 0 {
				now := time.Now()
				due := now.Add(time.Duration(s.delay.Load()) * time.Microsecond / 2)
				if kbit > 0 {
					sent := link.send(n, kbit, due)
					// the wire's queue is full: stop reading until it drains to the buffer
					if waiting := sent.Sub(due); waiting > backlog {
						pause(waiting - backlog)
					}
					due = sent
				}
				queue <- chunk{buffer[:n], due}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range queue {
		if wait := time.Until(c.due); wait > 0 {
			pause(wait)
		}
		if _, err := dst.Write(c.data); err != nil {
			break
		}
		s.bytes.Add(int64(len(c.data)))
	}
	if tcp, ok := dst.(*net.TCPConn); ok {
		tcp.CloseWrite()
	}
	src.Close()
}

// pause sleeps in the kernel (nanosleep): the runtime's own timers wake about a millisecond
// late here (a 100 us delay became 2.3 ms a round trip, 5 December 2026), nanosleep within
// tens of microseconds, and blocking a thread costs no CPU while it waits.
func pause(d time.Duration) {
	ts := syscall.NsecToTimespec(d.Nanoseconds())
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}

func controlServer(s *state) {
	setting := func(path, key string, limit int64, into *atomic.Int64) {
		http.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut {
				v, err := strconv.ParseInt(r.URL.Query().Get(key), 10, 64)
				if err != nil || v < 0 || v > limit {
					http.Error(w, fmt.Sprintf("%s must be 0 to %d", key, limit),
						http.StatusBadRequest)
					return
				}
				into.Store(v)
			}
			json.NewEncoder(w).Encode(s.report())
		})
	}
	setting("/delay", "us", 1_000_000, &s.delay)
	setting("/rate", "kbit", 100_000_000, &s.rate)
	if err := http.ListenAndServe(control, nil); err != nil {
		fail(err.Error())
	}
}

func call(method, path string) {
	request, _ := http.NewRequest(method, "http://"+control+path, nil)
	answer, err := http.DefaultClient.Do(request)
	if err != nil {
		fail("no proxy answers at " + control + ": " + err.Error())
	}
	defer answer.Body.Close()
	body, _ := io.ReadAll(answer.Body)
	if answer.StatusCode != http.StatusOK {
		fail(string(body))
	}
	os.Stdout.Write(body)
}
