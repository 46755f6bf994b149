package sim

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// recLink records the commands sent through a link and their answers.
type recLink struct {
	Link
	cmds, answers [][]byte
}

func (l *recLink) Send(b []byte) error {
	if len(b) > 0 && b[0] != opClose {
		l.cmds = append(l.cmds, bytes.Clone(b))
	}
	return l.Link.Send(b)
}

func (l *recLink) Recv() ([]byte, error) {
	b, err := l.Link.Recv()
	l.answers = append(l.answers, bytes.Clone(b))
	return b, err
}

// generic reads b with the msgpack library's generic decoder
// (DecodeInterface), as a page or any other msgpack reader would: every
// value must be an integer (returned as int64) or a bin ([]byte), and b
// must end with the last value (an error answer's text: a str, string).
func generic(t *testing.T, what string, b []byte) []any {
	t.Helper()
	d := msgpack.NewDecoder(bytes.NewReader(b))
	var vs []any
	for {
		v, err := d.DecodeInterface()
		if errors.Is(err, io.EOF) {
			return vs
		}
		if err != nil {
			t.Fatalf("%s: value %d: %v", what, len(vs), err)
		}
		if rv := reflect.ValueOf(v); rv.CanInt() {
			v = rv.Int()
		} else if rv.CanUint() {
			v = int64(rv.Uint())
		} else if _, ok := v.([]byte); !ok {
			if _, ok := v.(string); !ok {
				t.Fatalf("%s: value %d is a %T (%v), want an integer, a bin or a str", what, len(vs), v, v)
			}
		}
		vs = append(vs, v)
	}
}

// ints is vs, every one an integer.
func ints(t *testing.T, what string, vs []any) []int64 {
	t.Helper()
	out := make([]int64, len(vs))
	for i, v := range vs {
		n, ok := v.(int64)
		if !ok {
			t.Fatalf("%s: value %d is a %T, want an integer", what, i, v)
		}
		out[i] = n
	}
	return out
}

// TestRemoteWireMsgpack: the messages of a partitioned run across memories
// (the Web Workers' MessageChannel traffic) are msgpack streams that the
// msgpack library's generic decoder reads, with the shape runRemote and
// Partition.handle give them. A 2-partition run of the h=2 Dragonfly
// (MIN, UN at 0.5): the start command [op, n, p, window, stuck-head bound,
// mask, snapshot interval]; each window command [op, to, W, M, gather,
// crossings bin] and its answer [status, stuck head, (last progress, live)
// per cycle, crossings bin]; each crossings bin [packets, 30 integers a
// packet (port, VC, sequence number, control tag, flag, queuing time, the
// packet's 21 fields), credits, 2 integers a credit], the packets' source
// and destination nodes of the network.
func TestRemoteWireMsgpack(t *testing.T) {
	c := parallelConfig(t, goldenCase{"MIN", []string{"traffic.load=0.5"}})
	nodes := int64((c.Topology.A*c.Topology.H + 1) * c.Topology.A * c.Topology.P)
	links := remoteLinks(t, c, 2)
	rec := make([]*recLink, len(links))
	for p, l := range links {
		rec[p] = &recLink{Link: l}
		links[p] = rec[p]
	}
	s, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunRemote(context.Background(), nil, links); err != nil {
		t.Fatal(err)
	}
	const perPacket = 3 + tagFields + 2 + packetFields
	var windows, packets, credits int
	// section checks a crossings bin and counts its packets and credits
	section := func(what string, b []byte) {
		v := ints(t, what, generic(t, what, b))
		if len(b) == 0 { // before the first window
			return
		}
		k := int(v[0])
		if k < 0 || 1+k*perPacket >= len(v) {
			t.Fatalf("%s: %d packets in %d values", what, k, len(v))
		}
		for i := range k {
			f := v[1+i*perPacket : 1+(i+1)*perPacket]
			if src, dst := f[9], f[10]; src < 0 || src >= nodes || dst < 0 || dst >= nodes {
				t.Fatalf("%s: packet %d from node %d to %d, of %d nodes", what, i, src, dst, nodes)
			}
		}
		cr := v[1+k*perPacket]
		if rest := int64(len(v) - 2 - k*perPacket); cr < 0 || rest != 2*cr {
			t.Fatalf("%s: %d credits in %d values", what, cr, rest)
		}
		packets += k
		credits += int(cr)
	}
	for p, l := range rec {
		if len(l.cmds) != len(l.answers) {
			t.Fatalf("partition %d: %d commands, %d answers", p, len(l.cmds), len(l.answers))
		}
		st := ints(t, "start", generic(t, "start", l.cmds[0]))
		if len(st) != 7 || st[0] != opStart || st[1] != 2 || st[2] != int64(p) || st[3] < 1 {
			t.Fatalf("partition %d: start %v", p, st)
		}
		from := int64(0)
		for i, cmd := range l.cmds[1:] {
			ans := l.answers[1+i]
			if cmd[0] != opWindow {
				continue
			}
			what := "partition " + string(rune('0'+p)) + ", window to "
			v := generic(t, "window command", cmd)
			if len(v) != 6 {
				t.Fatalf("partition %d: a window command of %d values", p, len(v))
			}
			head := ints(t, "window command", v[:5])
			to, gather := head[1], head[4]
			b, ok := v[5].([]byte)
			if !ok {
				t.Fatalf("partition %d: the window command's crossings are a %T", p, v[5])
			}
			section(what+"(command)", b)
			a := generic(t, "window answer", ans)
			if gather != 0 { // followed by the partition's state
				from = to
				continue
			}
			if want := 2 + 2*int(to-from) + 1; len(a) != want {
				t.Fatalf("partition %d, window %d to %d: an answer of %d values, want %d", p, from, to, len(a), want)
			}
			av := ints(t, "window answer", a[:len(a)-1])
			if av[0] != ansOK || av[1] != -1 {
				t.Fatalf("partition %d, window to %d: status %d, stuck head %d", p, to, av[0], av[1])
			}
			for c := range to - from {
				if lp, live := av[2+2*c], av[3+2*c]; lp < 0 || lp > to+s.watchdog || live < 0 {
					t.Fatalf("partition %d, cycle %d: last progress %d, live %d", p, from+c, lp, live)
				}
			}
			b, ok = a[len(a)-1].([]byte)
			if !ok {
				t.Fatalf("partition %d: the answer's crossings are a %T", p, a[len(a)-1])
			}
			section(what+"(answer)", b)
			windows++
			from = to
		}
	}
	if windows < 10 || packets == 0 || credits == 0 {
		t.Fatalf("%d windows read, %d packets, %d credits", windows, packets, credits)
	}
	t.Logf("%d windows, %d packets and %d credits read by the generic decoder", windows, packets, credits)
}

// TestRemoteWireErrors: the decoder refuses what is not its message, saying
// what and where: a value of another msgpack type, a value or section cut
// short, a count larger than the bytes left; an error answer's text
// travels as a msgpack str.
func TestRemoteWireErrors(t *testing.T) {
	e := &enc{}
	e.i(300)
	e.section([]byte{1, 2, 3})
	for cut := range len(e.b) {
		d := &dec{b: e.b[:cut]}
		d.i()
		d.bytes()
		if d.err == nil || !strings.Contains(d.err.Error(), "truncated or malformed message") {
			t.Fatalf("cut at %d: %v", cut, d.err)
		}
	}
	for _, c := range []struct {
		b    []byte
		read func(d *dec)
		want string
	}{
		{[]byte{0xc0}, func(d *dec) { d.i() }, "an integer"},                            // nil
		{[]byte{0xcb, 0, 0, 0, 0, 0, 0, 0, 0}, func(d *dec) { d.i() }, "an integer"},    // float64
		{[]byte{0xa1, 'x'}, func(d *dec) { d.bytes() }, "a section"},                    // str
		{[]byte{0xc4, 5, 1}, func(d *dec) { d.bytes() }, "a section"},                   // bin of 5, 1 byte
		{[]byte{0xc8, 0x01}, func(d *dec) { d.i() }, "an integer"},                      // varint 100
		{[]byte{0x7f, 0x01}, func(d *dec) { d.count() }, "count 127 with 1 bytes left"}, // count
	} {
		d := &dec{b: c.b}
		c.read(d)
		if d.err == nil || !strings.Contains(d.err.Error(), c.want) {
			t.Errorf("%x: %v, want %q", c.b, d.err, c.want)
		}
	}
	pt := &Partition{p: 3}
	ans, _ := pt.Handle([]byte{opWindow})
	v := generic(t, "error answer", ans)
	if len(v) != 2 || v[0] != int64(ansErr) || !strings.Contains(v[1].(string), "partition 3: window before start") {
		t.Fatalf("error answer %v", v)
	}
}

// FuzzRemoteDecode: any bytes, read as the messages' values in any order
// (ops picks integer, count, section or packet), give values or an error,
// never a panic, and never read past their end; what was read, written
// again, reads back the same.
func FuzzRemoteDecode(f *testing.F) {
	e := &enc{}
	e.i(2)
	e.i(-1)
	e.i(1 << 40)
	var pk packet
	pk.src, pk.gen = 17, 123456
	e.packet(&pk)
	e.section([]byte{0x01, 0xff, 0xcc})
	f.Add(e.b, []byte{0, 0, 0, 3, 2})
	f.Add([]byte{0xc4, 0x02, 0x05}, []byte{2, 1})
	f.Fuzz(func(t *testing.T, b, ops []byte) {
		d := &dec{b: b}
		out := &enc{}
		for _, op := range ops {
			left := len(d.b)
			switch op % 4 {
			case 0:
				out.i(d.i())
			case 1:
				out.i(int64(d.count()))
			case 2:
				out.section(d.bytes())
			case 3:
				var p packet
				d.packet(&p)
				out.packet(&p)
			}
			if len(d.b) > left {
				t.Fatalf("op %d: %d bytes left, %d before", op, len(d.b), left)
			}
			if d.err != nil {
				return
			}
		}
		// read again what was read and written: the same values
		back, again := &dec{b: out.b}, &enc{}
		for _, op := range ops {
			switch op % 4 {
			case 0, 1:
				again.i(back.i())
			case 2:
				again.section(back.bytes())
			case 3:
				var p packet
				back.packet(&p)
				again.packet(&p)
			}
		}
		if back.err != nil || len(back.b) != 0 || !bytes.Equal(again.b, out.b) {
			t.Fatalf("written again: %v, %d bytes left, %x != %x", back.err, len(back.b), again.b, out.b)
		}
	})
}

// TestRemoteWireRandom: random values, sections and packets survive the
// encoding in any mix (FuzzRemoteDecode's round trip on random input).
func TestRemoteWireRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		e := &enc{}
		var want []int64
		var secs [][]byte
		for range rng.IntN(20) {
			if rng.IntN(5) == 0 {
				s := make([]byte, rng.IntN(300))
				for i := range s {
					s[i] = byte(rng.Uint32())
				}
				secs = append(secs, s)
				e.section(s)
				want = append(want, -1<<63)
				continue
			}
			v := int64(rng.Uint64()) >> rng.IntN(64)
			want = append(want, v)
			e.i(v)
		}
		d := &dec{b: e.b}
		for _, w := range want {
			if w == -1<<63 {
				if got := d.bytes(); !bytes.Equal(got, secs[0]) {
					t.Fatalf("section %x came back %x (%v)", secs[0], got, d.err)
				}
				secs = secs[1:]
				continue
			}
			if got := d.i(); got != w {
				t.Fatalf("%d came back %d (%v)", w, got, d.err)
			}
		}
		if d.err != nil || len(d.b) != 0 {
			t.Fatalf("%v, %d bytes left", d.err, len(d.b))
		}
	}
}

// TestRemoteWireAllocs: encoding packets into a reused buffer and decoding
// them with a reused decoder (the partition's outboxes and crossings,
// window after window) allocates nothing per packet.
func TestRemoteWireAllocs(t *testing.T) {
	e, d := &enc{}, &dec{}
	pk := packet{src: 5, dst: 1000, gen: 1 << 20, entry: 1<<20 + 300, inj: -1, aux: -70000}
	var got packet
	allocs := testing.AllocsPerRun(20, func() {
		e.b = e.b[:0]
		for range 100 {
			e.i(300)
			e.packet(&pk)
		}
		e.section(e.b[:10])
		d.b, d.err = e.b, nil
		for range 100 {
			d.i()
			d.packet(&got)
		}
		d.bytes()
	})
	if allocs != 0 || d.err != nil || got != pk {
		t.Fatalf("%.1f allocations per 100 packets (%v; %+v)", allocs, d.err, got)
	}
}

// TestRemoteWireLibrary: an integer as enc writes it is byte for byte the
// library's Encoder.EncodeInt (enc writes a fixint itself), and dec reads
// back what the library's encoder wrote.
func TestRemoteWireLibrary(t *testing.T) {
	var buf bytes.Buffer
	m := msgpack.NewEncoder(&buf)
	vs := []int64{-1 << 63, 1<<63 - 1, -1 << 31, 1<<31 - 1, 1 << 32, -(1 << 32)}
	for v := int64(-70000); v <= 70000; v++ {
		vs = append(vs, v)
	}
	for _, v := range vs {
		buf.Reset()
		m.EncodeInt(v)
		e := &enc{}
		e.i(v)
		if !bytes.Equal(e.b, buf.Bytes()) {
			t.Fatalf("%d: written %x, the library writes %x", v, e.b, buf.Bytes())
		}
		d := &dec{b: buf.Bytes()}
		if got := d.i(); got != v || d.err != nil || len(d.b) != 0 {
			t.Fatalf("%d: read %d (%v)", v, got, d.err)
		}
	}
}
