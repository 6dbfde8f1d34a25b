package trpc_test

// The behaviours tRPC-Agent-Go's in-memory memory service is tested for
// (memory/inmemory/service_test.go at v1.11.2), as one table that runs
// against that service and MemoryService alike.

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"trpc.group/trpc-go/trpc-agent-go/memory"
	memoryinmemory "trpc.group/trpc-go/trpc-agent-go/memory/inmemory"

	"github.com/mnemod/mnemod/clients/go/internal/daemontest"
	"github.com/mnemod/mnemod/clients/go/trpc"
)

// eachMemoryService runs test against tRPC's in-memory memory service and
// MemoryService on each backend's mnemod.
func eachMemoryService(t *testing.T, test func(t *testing.T, svc memory.Service)) {
	t.Helper()
	t.Run("trpc-inmemory", func(t *testing.T) { test(t, memoryinmemory.NewMemoryService()) })
	for _, backend := range daemontest.Backends {
		t.Run("mnemod-"+backend, func(t *testing.T) { test(t, trpc.NewMemoryService(client(t, backend))) })
	}
}

func read(t *testing.T, svc memory.Service, user memory.UserKey, limit int) []*memory.Entry {
	t.Helper()
	entries, err := svc.ReadMemories(t.Context(), user, limit)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func texts(entries []*memory.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Memory.Memory
	}
	return out
}

var memorySuite = []struct {
	name, from string
	run        func(t *testing.T, svc memory.Service, user memory.UserKey)
}{
	{"add and read", "TestMemoryService_AddMemory", func(t *testing.T, svc memory.Service, user memory.UserKey) {
		must(t, svc.AddMemory(t.Context(), user, "Test memory content", []string{"test", "memory"}))
		got := read(t, svc, user, 10)
		if len(got) != 1 || got[0].Memory.Memory != "Test memory content" || len(got[0].Memory.Topics) != 2 ||
			got[0].ID == "" || got[0].AppName != user.AppName || got[0].UserID != user.UserID {
			t.Errorf("read %+v", got)
		}
	}},
	{"the same memory is stored once", "AddMemory's id by content", func(t *testing.T, svc memory.Service,
		user memory.UserKey) {
		for range 2 {
			must(t, svc.AddMemory(t.Context(), user, "Likes green tea", []string{"food"}))
		}
		if got := read(t, svc, user, 0); len(got) != 1 {
			t.Errorf("%d memories, want 1", len(got))
		}
	}},
	{"other episode metadata, other memory", "TestMemoryService_AddMemory_DifferentEpisodeMetadataGetsDifferentIDs",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			for _, day := range []int{1, 2} {
				at := time.Date(2024, 5, day, 0, 0, 0, 0, time.UTC)
				must(t, svc.AddMemory(t.Context(), user, "User met Alice", nil, memory.WithMetadata(&memory.Metadata{
					Kind: memory.KindEpisode, EventTime: &at, Participants: []string{"Alice"}})))
			}
			got := read(t, svc, user, 10)
			if len(got) != 2 || got[0].ID == got[1].ID || got[0].Memory.Kind != memory.KindEpisode {
				t.Errorf("read %+v", got)
			}
		}},
	{"update rotates the id", "TestMemoryService_UpdateMemory_RotatesIDAndReturnsResult",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			must(t, svc.AddMemory(t.Context(), user, "first memory", nil))
			old := read(t, svc, user, 1)[0].ID
			result := &memory.UpdateResult{}
			key := memory.Key{AppName: user.AppName, UserID: user.UserID, MemoryID: old}
			must(t, svc.UpdateMemory(t.Context(), key, "updated memory", []string{"updated"}, memory.WithUpdateResult(result)))
			got := read(t, svc, user, 10)
			if result.MemoryID == "" || result.MemoryID == old || len(got) != 1 || got[0].ID != result.MemoryID ||
				got[0].Memory.Memory != "updated memory" || got[0].Memory.Kind != memory.KindFact {
				t.Errorf("after the update: result %q, read %+v", result.MemoryID, got)
			}
		}},
	{"update of the same text keeps the id", "TestMemoryService_UpdateMemory_SameIDUpdatesInPlace",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			must(t, svc.AddMemory(t.Context(), user, "same content", []string{"old"}))
			old := read(t, svc, user, 1)[0].ID
			result := &memory.UpdateResult{}
			key := memory.Key{AppName: user.AppName, UserID: user.UserID, MemoryID: old}
			must(t, svc.UpdateMemory(t.Context(), key, "same content", []string{"new"}, memory.WithUpdateResult(result)))
			got := read(t, svc, user, 1)
			if result.MemoryID != old || got[0].ID != old || !slices.Equal(got[0].Memory.Topics, []string{"new"}) {
				t.Errorf("result %q, read %+v", result.MemoryID, got[0])
			}
		}},
	{"update keeps metadata not given", "TestMemoryService_UpdateMemory_PreservesMetadataWhenNotProvided",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
			must(t, svc.AddMemory(t.Context(), user, "Trip to Lyon", nil, memory.WithMetadata(&memory.Metadata{
				Kind: memory.KindEpisode, EventTime: &at, Location: "Lyon"})))
			key := memory.Key{AppName: user.AppName, UserID: user.UserID, MemoryID: read(t, svc, user, 1)[0].ID}
			must(t, svc.UpdateMemory(t.Context(), key, "Trip to Lyon by train", nil))
			got := read(t, svc, user, 1)[0].Memory
			if got.Kind != memory.KindEpisode || got.Location != "Lyon" || got.EventTime == nil || !got.EventTime.Equal(at) {
				t.Errorf("after the update: %+v", got)
			}
		}},
	{"update or delete a missing memory", "TestUpdateMemory_Errors, TestDeleteMemory_Errors",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			key := memory.Key{AppName: user.AppName, UserID: user.UserID, MemoryID: "missing"}
			if err := svc.UpdateMemory(t.Context(), key, "x", nil); err == nil {
				t.Error("updating a missing memory succeeded")
			}
			if err := svc.DeleteMemory(t.Context(), key); err == nil {
				t.Error("deleting a missing memory succeeded")
			}
			if err := svc.DeleteMemory(t.Context(), memory.Key{AppName: user.AppName, UserID: user.UserID}); !errors.Is(err,
				memory.ErrMemoryIDRequired) {
				t.Errorf("deleting without an id: %v", err)
			}
		}},
	{"delete and clear", "TestMemoryService_DeleteMemory, TestMemoryService_ClearMemories",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			for i := range 3 {
				must(t, svc.AddMemory(t.Context(), user, fmt.Sprintf("memory %d", i), nil))
			}
			first := read(t, svc, user, 0)[0]
			must(t, svc.DeleteMemory(t.Context(), memory.Key{AppName: user.AppName, UserID: user.UserID, MemoryID: first.ID}))
			if got := read(t, svc, user, 0); len(got) != 2 {
				t.Errorf("after a delete: %v", texts(got))
			}
			must(t, svc.ClearMemories(t.Context(), user))
			if got := read(t, svc, user, 0); len(got) != 0 {
				t.Errorf("after clearing: %v", texts(got))
			}
		}},
	{"read newest first, up to a limit", "TestMemoryService_ReadMemoriesWithLimit",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			for i := range 5 {
				must(t, svc.AddMemory(t.Context(), user, fmt.Sprintf("memory %d", i), nil))
				time.Sleep(2 * time.Millisecond)
			}
			if got := texts(read(t, svc, user, 3)); !slices.Equal(got, []string{"memory 4", "memory 3", "memory 2"}) {
				t.Errorf("read %v", got)
			}
			other := memory.UserKey{AppName: user.AppName, UserID: "nobody"}
			if got := read(t, svc, other, 3); len(got) != 0 {
				t.Errorf("another user read %v", texts(got))
			}
		}},
	{"search by words", "TestMemoryService_SearchMemories", func(t *testing.T, svc memory.Service, user memory.UserKey) {
		must(t, svc.AddMemory(t.Context(), user, "User likes coffee in the morning", []string{"preferences"}))
		must(t, svc.AddMemory(t.Context(), user, "User works as an engineer", []string{"work"}))
		found, err := svc.SearchMemories(t.Context(), user, "coffee")
		if err != nil || len(found) != 1 || found[0].Memory.Memory != "User likes coffee in the morning" {
			t.Errorf("found %v, %v", found, err)
		}
		other := memory.UserKey{AppName: user.AppName, UserID: "nobody"}
		if found, err := svc.SearchMemories(t.Context(), other, "coffee"); err != nil || len(found) != 0 {
			t.Errorf("another user found %v, %v", found, err)
		}
	}},
	{"search options", "TestMemoryService_SearchMemories_CustomSearchOptions",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			at := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
			must(t, svc.AddMemory(t.Context(), user, "Hiking trip with Bob", nil, memory.WithMetadata(&memory.Metadata{
				Kind: memory.KindEpisode, EventTime: &at})))
			must(t, svc.AddMemory(t.Context(), user, "Prefers hiking boots", nil))
			for i := range 3 {
				must(t, svc.AddMemory(t.Context(), user, fmt.Sprintf("hiking note %d", i), nil))
			}
			episodes, err := svc.SearchMemories(t.Context(), user, "hiking",
				memory.WithSearchOptions(memory.SearchOptions{Query: "hiking", Kind: memory.KindEpisode}))
			if err != nil || len(episodes) != 1 || episodes[0].Memory.Memory != "Hiking trip with Bob" {
				t.Errorf("episodes: %v, %v", episodes, err)
			}
			two, err := svc.SearchMemories(t.Context(), user, "hiking",
				memory.WithSearchOptions(memory.SearchOptions{Query: "hiking", MaxResults: 2}))
			if err != nil || len(two) != 2 {
				t.Errorf("MaxResults 2: %d, %v", len(two), err)
			}
		}},
	{"tools", "TestMemoryService_Tools", func(t *testing.T, svc memory.Service, _ memory.UserKey) {
		var names []string
		for _, tool := range svc.Tools() {
			names = append(names, tool.Declaration().Name)
		}
		slices.Sort(names)
		want := []string{memory.AddToolName, memory.LoadToolName, memory.SearchToolName, memory.UpdateToolName}
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("tools %v, want %v", names, want)
		}
	}},
	{"keys are checked", "TestAddMemory_InvalidKey, TestReadMemories_InvalidKey",
		func(t *testing.T, svc memory.Service, user memory.UserKey) {
			if err := svc.AddMemory(t.Context(), memory.UserKey{UserID: "u"}, "x", nil); !errors.Is(err,
				memory.ErrAppNameRequired) {
				t.Errorf("AddMemory without an app: %v", err)
			}
			if _, err := svc.ReadMemories(t.Context(), memory.UserKey{AppName: user.AppName}, 1); !errors.Is(err,
				memory.ErrUserIDRequired) {
				t.Errorf("ReadMemories without a user: %v", err)
			}
		}},
}

// TestMemorySuite runs the ported behaviours against tRPC's in-memory memory service and MemoryService.
func TestMemorySuite(t *testing.T) {
	for _, c := range memorySuite {
		t.Run(c.name, func(t *testing.T) {
			eachMemoryService(t, func(t *testing.T, svc memory.Service) {
				c.run(t, svc, memory.UserKey{AppName: appName(), UserID: "test-user"})
			})
		})
	}
}
