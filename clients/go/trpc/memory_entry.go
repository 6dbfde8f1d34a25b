package trpc

import (
	"time"

	"trpc.group/trpc-go/trpc-agent-go/memory"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// metadataOf is what a mnemod memory's metadata keeps of a tRPC memory:
// its topics and episode metadata, beside the text mnemod recalls.
func metadataOf(mem *memory.Memory) map[string]any {
	metadata := map[string]any{"topics": orEmpty(mem.Topics)}
	if mem.Kind != "" {
		metadata["kind"] = string(mem.Kind)
	}
	if mem.EventTime != nil {
		metadata["event_time"] = mem.EventTime.UTC().Format(time.RFC3339Nano)
	}
	if len(mem.Participants) > 0 {
		metadata["participants"] = mem.Participants
	}
	if mem.Location != "" {
		metadata["location"] = mem.Location
	}
	return metadata
}

// memoryOf is the tRPC memory a mnemod memory keeps.
func memoryOf(m *mnemo.Memory) *memory.Memory {
	updated := m.UpdatedAt
	mem := &memory.Memory{Memory: m.Text, Topics: stringList(m.Metadata["topics"]), LastUpdated: &updated}
	if participants := stringList(m.Metadata["participants"]); len(participants) > 0 {
		mem.Participants = participants
	}
	mem.Kind = memory.KindFact // tRPC's kind of a memory that names none
	if kind, ok := m.Metadata["kind"].(string); ok && kind != "" {
		mem.Kind = memory.Kind(kind)
	}
	if at, ok := m.Metadata["event_time"].(string); ok {
		if t, err := time.Parse(time.RFC3339Nano, at); err == nil {
			mem.EventTime = &t
		}
	}
	mem.Location, _ = m.Metadata["location"].(string)
	return mem
}

func entryOf(m *mnemo.Memory, score float64) *memory.Entry {
	return &memory.Entry{ID: m.ID, AppName: m.App, UserID: m.User, Memory: memoryOf(m), CreatedAt: m.CreatedAt,
		UpdatedAt: m.UpdatedAt, Score: score}
}

func stringList(value any) []string {
	list, _ := value.([]any)
	out := make([]string, 0, len(list))
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func orEmpty(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
