package mnemo_test

import (
	"errors"
	"testing"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

func TestMemoriesAndRecall(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		written := must[[]mnemo.WrittenMemory](t)(c.WriteMemories(ctx, "me", "u1", []mnemo.NewMemory{
			{ID: "seat", Text: "Prefers an aisle seat on flights", Metadata: map[string]any{"topic": "travel"}},
			{Text: "Drinks green tea, no sugar", Namespace: "food"},
		}, true))
		if len(written) != 2 || !written[0].Created || written[1].ID == "" {
			t.Fatalf("written %+v", written)
		}
		// The same text again is not stored twice.
		dup := must[[]mnemo.WrittenMemory](t)(c.WriteMemories(ctx, "me", "u1", []mnemo.NewMemory{
			{Text: "drinks  GREEN tea, no sugar", Namespace: "food"}}, false))
		if dup[0].Created || dup[0].ID != written[1].ID {
			t.Errorf("a duplicate text was %+v", dup[0])
		}
		recalled := must[*mnemo.RecallResult](t)(c.Recall(ctx, "me", mnemo.RecallRequest{
			Query: "what seat does the user prefer?", User: "u1"}))
		if recalled.Mode != mnemo.RecallKeyword || len(recalled.Memories) != 1 || recalled.Memories[0].ID != "seat" ||
			recalled.Memories[0].Score <= 0 || recalled.Memories[0].KeywordRank == nil {
			t.Fatalf("recalled %+v", recalled)
		}
		filtered := must[*mnemo.RecallResult](t)(c.Recall(ctx, "me", mnemo.RecallRequest{
			Query: "seat tea", User: "u1", Metadata: map[string]any{"topic": "travel"}}))
		if len(filtered.Memories) != 1 {
			t.Errorf("metadata filter recalled %d", len(filtered.Memories))
		}
		text := "Prefers a window seat"
		updated := must[*mnemo.Memory](t)(c.UpdateMemory(ctx, "me", "u1", "seat", mnemo.MemoryPatch{Text: &text}))
		if updated.Text != text || updated.Metadata["topic"] != "travel" {
			t.Errorf("updated %+v", updated)
		}
		var ids []string
		for m, err := range c.Memories(ctx, "me", "u1", mnemo.ListMemoriesOptions{Limit: 1}) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, m.ID)
		}
		if len(ids) != 2 {
			t.Errorf("listed %v", ids)
		}
		if err := c.DeleteMemory(ctx, "me", "u1", "seat"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Memory(ctx, "me", "u1", "seat", false); !errors.Is(err, mnemo.NotFound) {
			t.Errorf("reading a deleted memory: %v, want NotFound", err)
		}
	})
}

func TestOperations(t *testing.T) {
	eachBackend(t, func(t *testing.T, c *mnemo.Client) {
		ctx := t.Context()
		if err := c.Healthy(ctx); err != nil {
			t.Fatal(err)
		}
		if ready, err := c.Ready(ctx); !ready || err != nil {
			t.Errorf("ready %v %v", ready, err)
		}
		info := must[*mnemo.Info](t)(c.Info(ctx))
		if info.Version == "" || info.Storage.Plugin == "" {
			t.Errorf("info %+v", info)
		}
		metrics := must[string](t)(c.Metrics(ctx))
		if len(metrics) == 0 || metrics[0] != '#' {
			t.Errorf("metrics start %q", metrics[:min(len(metrics), 40)])
		}
	})
}
