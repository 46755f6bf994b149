package topology

import "fmt"

// Mesh is a 2D mesh of Width × Height routers with P nodes each, routed in
// dimension order (x first, then y: Dally and Towles, Principles and
// Practices of Interconnection Networks, §14.2). It is the toy second
// topology that proves the Topology contract: its classes (x, y) are not
// the Dragonfly's, its edge routers have unconnected ports.
//
// Numbering: router = x + Width·y, node = k + P·router. Ports: 0…P−1 nodes,
// P x+ (east), P+1 x− (west), P+2 y+ (north), P+3 y− (south).
type Mesh struct {
	Width, Height, P int
}

// The mesh's port classes (meshKind.Classes).
const (
	MeshX PortClass = 1
	MeshY PortClass = 2
)

// NewMesh checks the sizes and builds the mesh.
func NewMesh(width, height, p int) (*Mesh, error) {
	if width < 1 || height < 1 || p < 1 {
		return nil, fmt.Errorf("mesh: width, height, p must be ≥ 1 (got width=%d height=%d p=%d)", width, height, p)
	}
	return &Mesh{Width: width, Height: height, P: p}, nil
}

var _ Topology = (*Mesh)(nil)

func (m *Mesh) Name() string {
	return fmt.Sprintf("mesh %d×%d p=%d", m.Width, m.Height, m.P)
}
func (m *Mesh) Routers() int        { return m.Width * m.Height }
func (m *Mesh) Nodes() int          { return m.P * m.Width * m.Height }
func (m *Mesh) Radix() int          { return m.P + 4 }
func (m *Mesh) Classes() []Class    { return meshKind.Classes }
func (m *Mesh) Groups() int         { return 1 }
func (m *Mesh) GroupOf(int) int     { return 0 }
func (m *Mesh) XY(r int) (x, y int) { return r % m.Width, r / m.Width }

func (m *Mesh) NodePort(n int) (router, port int) { return n / m.P, n % m.P }

func (m *Mesh) PortClass(_, port int) PortClass {
	switch {
	case port < m.P:
		return Injection
	case port < m.P+2:
		return MeshX
	}
	return MeshY
}

// Link: the neighbour in the port's direction, through its opposite port;
// (−1, −1) at the mesh's edge.
func (m *Mesh) Link(r, port int) (int, int) {
	x, y := m.XY(r)
	switch port - m.P {
	case 0:
		x++
	case 1:
		x--
	case 2:
		y++
	case 3:
		y--
	default:
		return -1, -1
	}
	if x < 0 || x >= m.Width || y < 0 || y >= m.Height {
		return -1, -1
	}
	return x + m.Width*y, m.P + ((port - m.P) ^ 1) // the opposite direction
}

// MinimalPorts is the dimension-order port: x first, then y (one port: DOR
// has no path diversity).
func (m *Mesh) MinimalPorts(r, dest int, buf []int) []int {
	return append(buf, m.dorPort(r, dest))
}

func (m *Mesh) dorPort(r, dest int) int {
	x, y := m.XY(r)
	dx, dy := m.XY(dest)
	switch {
	case dx > x:
		return m.P
	case dx < x:
		return m.P + 1
	case dy > y:
		return m.P + 2
	}
	return m.P + 3
}
