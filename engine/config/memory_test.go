package config

import (
	"strings"
	"testing"
)

func TestStateBytesOfThePresets(t *testing.T) {
	h8, _ := PresetByName("h8")
	b := h8.StateBytes()
	// 2,064 routers × (≈1,600 slots × 72 B + ports, VCs, output FIFOs)
	if b < 200<<20 || b > 300<<20 {
		t.Errorf("h8 preset state estimate %d MB, want 200–300", b>>20)
	}
	if errs := h8.validateMemory(); errs != nil {
		t.Errorf("h8 preset refused: %v", errs)
	}
}

func TestHugeBuffersAreRefusedNamingTheBuffer(t *testing.T) {
	c, _ := PresetByName("h8")
	c.Router.GlobalBuffer = 1000000
	errs := c.validateMemory()
	if len(errs) != 1 || errs[0].Path != "router.globalBuffer" || !strings.Contains(errs[0].Msg, "GiB") {
		t.Fatalf("want one error on router.globalBuffer naming the memory, got %v", errs)
	}
	c, _ = PresetByName("h2")
	c.Router.OutputBuffer = 1000000
	c.Router.PacketSize = 1
	if errs := c.validateMemory(); len(errs) != 1 || errs[0].Path != "router.outputBuffer" {
		t.Fatalf("want one error on router.outputBuffer, got %v", errs)
	}
}
