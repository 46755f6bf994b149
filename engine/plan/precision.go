package plan

import (
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// Extend appends to Runs and Jobs the runs that sim.precision asks for
// (sweep.PointRuns, the decision sweep.Run takes) of every point whose
// runs listed so far have all finished, and again for the points whose
// added runs have finished too, until it adds none; it returns how many it
// added. Whatever process finishes a point's runs, and in whatever order,
// the point takes the same seeds as in sweep.Run: a merged plan stays the
// sweep run at once. A run file that does not decode counts as not
// finished here (Results reports it). Without sim.precision it reads
// nothing and adds nothing.
func (p *Plan) Extend() (int, error) {
	prec := false
	for _, c := range p.Spec.Series {
		prec = prec || c.Sim.Precision > 0
	}
	if !prec {
		return 0, nil
	}
	results := make([]*result.Result, len(p.Runs))
	for i := range p.Runs {
		results[i], _ = p.read(i)
	}
	added := 0
	for {
		// the runs of each point, in run order (the listed ones first,
		// then those added, each in order)
		nx := len(p.Spec.Xs())
		points := make([][]int, len(p.Spec.Series)*nx)
		for i, j := range p.Jobs {
			k := j.Series*nx + j.Point
			points[k] = append(points[k], i)
		}
		n := 0
		for _, idx := range points {
			if len(idx) == 0 {
				continue
			}
			runs := make([]*result.Result, len(idx))
			whole := true
			for k, i := range idx {
				runs[k], whole = results[i], whole && results[i] != nil
			}
			if !whole {
				continue
			}
			first, want := idx[0], sweep.PointRuns(runs)
			for k := len(idx); k < want; k++ {
				j := p.Jobs[first].Nth(k)
				p.Jobs, p.Runs = append(p.Jobs, j), append(p.Runs, runOf(p.Spec, j))
				p.order = append(p.order, p.order[first]+k)
				r, _ := p.read(len(p.Runs) - 1)
				results = append(results, r)
				n++
			}
		}
		if n == 0 {
			return added, nil
		}
		added += n
	}
}
