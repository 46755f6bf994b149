package plot

// ClassRow is one port class of one series at the selected point: hops per
// delivered packet on links of the class and their utilisation, means over
// the point's finished runs.
type ClassRow struct {
	Series, Class string
	Hops          float64 // 0 for the injection class (no hops)
	Utilisation   float64 // phits per cycle per connected link (injection: per ejection link)
	Links         int64   // connected output ports of the class
	Runs          int     // finished runs averaged
}

// ClassTable is the per-class rows of the selected point for the series
// whose results report classes (every topology but the Dragonfly, whose
// local and global links the other charts and exports carry), in series
// then class order, and the point's label; nil before any such result.
func ClassTable(in Input) (rows []ClassRow, at string) {
	names, runs, x := pointRuns(in)
	for si, rs := range runs {
		var first []ClassRow
		n := 0
		for _, r := range rs {
			if len(r.Classes) == 0 {
				continue
			}
			if first == nil {
				first = make([]ClassRow, len(r.Classes))
				for c, cl := range r.Classes {
					first[c] = ClassRow{Series: names[si], Class: cl.Class, Links: cl.Links}
				}
			}
			n++
			for c, cl := range r.Classes {
				if c < len(first) {
					first[c].Hops += cl.Hops
					first[c].Utilisation += cl.Utilisation
				}
			}
		}
		for c := range first {
			first[c].Hops /= float64(n)
			first[c].Utilisation /= float64(n)
			first[c].Runs = n
		}
		rows = append(rows, first...)
	}
	if rows == nil {
		return nil, ""
	}
	return rows, pointLabel(in.Results, x)
}
