package experiment

import (
	"fmt"

	"phitsim/engine/config"
	"phitsim/engine/sweep"
)

// ImportConfig reads a file the page imports into one series: a
// configuration, or a document phitsim writes that holds exactly one (a
// run's result, `phitsim run -out`; a sweep's or the page's export of one
// series), as the CLI's -config takes them (sweep.DocumentConfigs). what
// says which document it was ("" for a configuration). A document of
// several series is refused: "Open results JSON…" shows it whole.
func ImportConfig(data []byte) (c config.Config, what string, err error) {
	docs, what, _ := sweep.DocumentConfigs(data)
	if len(docs) > 1 {
		return c, what, fmt.Errorf("%s: a configuration replaces one series; open the document with \"Open results JSON…\" to see all of it", what)
	}
	c, err = config.Parse(docs[0])
	return c, what, err
}
