package topology

import (
	"fmt"
	"strings"
)

// Params are the parameters of every kind, as topology.* of the
// configuration holds them (package config converts); each kind reads its
// own.
type Params struct {
	Kind string
	// Dragonfly
	H, A, P     int // P: nodes per router, also the mesh's
	Arrangement string
	// mesh
	Width, Height int
	// flattened butterfly: dimensions (1 or 2), routers per dimension (P:
	// nodes per router); a fat tree's K is its down ports per switch
	Dims, K int
	// fat tree: stages, and the subtrees its top stage joins (0: K)
	Stages, Subtrees int
}

// Sizes of a network.
type Sizes struct {
	Routers, Nodes, Radix, Groups int
}

// Kind is one kind of topology: everything the configuration and the
// simulator need to know of it before (and without) building it.
type Kind struct {
	Name string
	// Title: the kind as a reader names it ("Dragonfly", "flattened
	// butterfly"), for summaries.
	Title string
	// Classes: its port classes, class 0 InjectionClass.
	Classes []Class
	// Minimal: the hop classes of its minimal paths, in path order, as a VC
	// sequence spec (package vcs: class names, "*" = the hop may repeat).
	Minimal string
	// Check: the kind's constraints on its parameters, each error naming
	// the field (dotted path) and its allowed range.
	Check func(Params) error
	// Sizes, from parameters that passed Check, without building.
	Sizes func(Params) Sizes
	// Ports: the ports of each class over the whole network (connected or
	// not: the simulator gives every port its class's buffers).
	Ports func(Params) []int64
	// TableBytes: the memory of the built topology's own tables.
	TableBytes func(Params) int64
	New        func(Params) (Topology, error)
	// Fill sets this kind's own fields left at zero to a small network of
	// the kind: what a form shows when its user switches to the kind. A
	// configuration file gets no such default (a missing field is an error
	// naming it).
	Fill func(*Params)
}

// kinds is the registry, in the order the configuration lists them.
var kinds = []*Kind{&dragonflyKind, &meshKind, &fbflyKind, &fattreeKind}

// Kinds lists the kind names.
func Kinds() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name
	}
	return names
}

// KindOf is the kind named name.
func KindOf(name string) (*Kind, error) {
	for _, k := range kinds {
		if k.Name == name {
			return k, nil
		}
	}
	return nil, fmt.Errorf("topology.kind: %q is not a known topology (one of %s)", name, strings.Join(Kinds(), ", "))
}

// Known tells whether name is a kind.
func Known(name string) bool {
	_, err := KindOf(name)
	return err == nil
}

// New builds the topology p describes.
func New(p Params) (Topology, error) {
	k, err := KindOf(p.Kind)
	if err != nil {
		return nil, err
	}
	if err := k.Check(p); err != nil {
		return nil, err
	}
	return k.New(p)
}

// checkRange is the error of field (a dotted path) outside lo…hi.
func checkRange(field string, v, lo, hi int, what string) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s: %d %s; it must be %d to %d", field, v, what, lo, hi)
	}
	return nil
}

var dragonflyKind = Kind{
	Name:  "dragonfly",
	Title: "Dragonfly",
	Classes: []Class{InjectionClass,
		{Name: "local", Latency: "topology.localLatency", Buffer: "router.localBuffer", VCs: "router.localVCs"},
		{Name: "global", Latency: "topology.globalLatency", Buffer: "router.globalBuffer", VCs: "router.globalVCs"}},
	Minimal: "local global local", // thesis §1.2: at most l g l
	Check: func(p Params) error {
		for _, f := range []struct {
			field string
			v, hi int
			what  string
		}{{"topology.h", p.H, 32, "global links per router"}, {"topology.a", p.A, 64, "routers per group"}, {"topology.p", p.P, 64, "nodes per router"}} {
			if err := checkRange(f.field, f.v, 1, f.hi, f.what); err != nil {
				return err
			}
		}
		switch p.Arrangement {
		case PalmTree, Consecutive, "":
			return nil
		}
		return fmt.Errorf("topology.arrangement: %q is not one of %s, %s", p.Arrangement, PalmTree, Consecutive)
	},
	Sizes: func(p Params) Sizes {
		g := dragonflyGroups(p.H, p.A)
		return Sizes{Routers: p.A * g, Nodes: p.P * p.A * g, Radix: p.P + p.A - 1 + p.H, Groups: g}
	},
	Ports: func(p Params) []int64 {
		r := int64(p.A * dragonflyGroups(p.H, p.A))
		return []int64{r * int64(p.P), r * int64(p.A-1), r * int64(p.H)}
	},
	TableBytes: func(p Params) int64 {
		g := int64(dragonflyGroups(p.H, p.A))
		return g*g*(2+1) + int64(p.A)*g*8 // linkTo and owner; grp and pos
	},
	New: func(p Params) (Topology, error) {
		d, err := NewDragonfly(p.H, p.A, p.P, p.Arrangement)
		if err != nil {
			return nil, err
		}
		return d, nil
	},
	Fill: func(p *Params) {
		if p.H == 0 && p.A == 0 {
			p.H, p.A = 2, 4 // the balanced h=2 system (72 nodes with p=2)
		}
		if p.P == 0 {
			p.P = 2
		}
		if p.Arrangement == "" {
			p.Arrangement = PalmTree
		}
	},
}

// dragonflyGroups: a maximum-size Dragonfly has a·h+1 groups (thesis §1.2.1).
func dragonflyGroups(h, a int) int { return a*h + 1 }

var meshKind = Kind{
	Name:  "mesh",
	Title: "2D mesh",
	// x and y links share the link latency, buffer and VC count fields
	Classes: []Class{InjectionClass,
		{Name: "x", Latency: "topology.localLatency", Buffer: "router.localBuffer", VCs: "router.localVCs"},
		{Name: "y", Latency: "topology.localLatency", Buffer: "router.localBuffer", VCs: "router.localVCs"}},
	Minimal: "x* y*", // dimension order: any number of x hops, then of y hops
	Check: func(p Params) error {
		for _, f := range []struct {
			field string
			v     int
			what  string
		}{{"topology.width", p.Width, "routers per row"}, {"topology.height", p.Height, "routers per column"}, {"topology.p", p.P, "nodes per router"}} {
			if err := checkRange(f.field, f.v, 1, 64, f.what+" of the mesh"); err != nil {
				return err
			}
		}
		return nil
	},
	Sizes: func(p Params) Sizes {
		r := p.Width * p.Height
		return Sizes{Routers: r, Nodes: r * p.P, Radix: p.P + 4, Groups: 1}
	},
	Ports: func(p Params) []int64 {
		r := int64(p.Width * p.Height)
		return []int64{r * int64(p.P), 2 * r, 2 * r}
	},
	TableBytes: func(Params) int64 { return 0 }, // computed, no tables
	New: func(p Params) (Topology, error) {
		return NewMesh(p.Width, p.Height, p.P)
	},
	Fill: func(p *Params) {
		if p.Width == 0 && p.Height == 0 {
			p.Width, p.Height = 4, 4
		}
		if p.P == 0 {
			p.P = 1
		}
	},
}
