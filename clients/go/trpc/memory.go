package trpc

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"trpc.group/trpc-go/trpc-agent-go/memory"
	memorytool "trpc.group/trpc-go/trpc-agent-go/memory/tool"
	"trpc.group/trpc-go/trpc-agent-go/session"
	"trpc.group/trpc-go/trpc-agent-go/tool"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// MemoryService is tRPC-Agent-Go's memory.Service over mnemod's memories,
// found again by mnemod's recall (natural questions work).
type MemoryService struct {
	client    *mnemo.Client
	namespace string
	limit     int
}

var _ memory.Service = (*MemoryService)(nil)

// A MemoryOption configures a MemoryService.
type MemoryOption func(*MemoryService)

// WithNamespace sets the mnemod memory namespace the service keeps its memories in (default "trpc").
func WithNamespace(namespace string) MemoryOption {
	return func(m *MemoryService) { m.namespace = namespace }
}

// WithMaxResults sets how many memories SearchMemories answers when its
// options do not say (default 10, at most 100).
func WithMaxResults(n int) MemoryOption { return func(m *MemoryService) { m.limit = n } }

// NewMemoryService makes a MemoryService that stores through client.
func NewMemoryService(client *mnemo.Client, opts ...MemoryOption) *MemoryService {
	m := &MemoryService{client: client, namespace: "trpc", limit: 10}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// AddMemory stores a memory of the user under an id made from its content,
// as tRPC makes it (text, app, user and episode metadata): adding the same
// memory again stores nothing twice.
func (m *MemoryService) AddMemory(ctx context.Context, userKey memory.UserKey, text string, topics []string,
	opts ...memory.AddOption) error {
	if err := userKey.CheckUserKey(); err != nil {
		return err
	}
	mem := &memory.Memory{Memory: text, Topics: topics}
	applyMetadata(mem, memory.ResolveAddOptions(opts), false)
	return m.write(ctx, userKey.AppName, userKey.UserID, mem)
}

// UpdateMemory changes a memory. Its id follows its content, as in tRPC: a
// changed memory gets a new id (memory.WithUpdateResult reports it), and
// metadata not given is kept.
func (m *MemoryService) UpdateMemory(ctx context.Context, key memory.Key, text string, topics []string,
	opts ...memory.UpdateOption) error {
	if err := key.CheckMemoryKey(); err != nil {
		return err
	}
	current, err := m.client.Memory(ctx, key.AppName, key.UserID, key.MemoryID, false)
	if err != nil {
		return fmt.Errorf("trpc: reading memory %s of %s/%s: %w", key.MemoryID, key.AppName, key.UserID, err)
	}
	mem := memoryOf(current)
	mem.Memory, mem.Topics = text, topics
	applyMetadata(mem, memory.ResolveUpdateOptions(opts), true)
	id := memoryID(mem, key.AppName, key.UserID)
	if id != key.MemoryID {
		if _, err := m.client.Memory(ctx, key.AppName, key.UserID, id, false); err == nil {
			return fmt.Errorf("trpc: memory %s already exists: the update would make a duplicate", id)
		}
		if err := m.write(ctx, key.AppName, key.UserID, mem); err != nil {
			return err
		}
		if err := m.client.DeleteMemory(ctx, key.AppName, key.UserID, key.MemoryID); err != nil {
			return fmt.Errorf("trpc: replacing memory %s: %w", key.MemoryID, err)
		}
	} else if err := m.write(ctx, key.AppName, key.UserID, mem); err != nil {
		return err
	}
	if result := memory.ResolveUpdateResult(opts); result != nil {
		result.MemoryID = id
	}
	return nil
}

// DeleteMemory forgets a memory; a missing one is an error wrapping mnemo.NotFound.
func (m *MemoryService) DeleteMemory(ctx context.Context, key memory.Key) error {
	if err := key.CheckMemoryKey(); err != nil {
		return err
	}
	if err := m.client.DeleteMemory(ctx, key.AppName, key.UserID, key.MemoryID); err != nil {
		return fmt.Errorf("trpc: deleting memory %s of %s/%s: %w", key.MemoryID, key.AppName, key.UserID, err)
	}
	return nil
}

// ClearMemories forgets every memory of the user in the service's namespace.
func (m *MemoryService) ClearMemories(ctx context.Context, userKey memory.UserKey) error {
	if err := userKey.CheckUserKey(); err != nil {
		return err
	}
	var ids []string
	for mem, err := range m.client.Memories(ctx, userKey.AppName, userKey.UserID,
		mnemo.ListMemoriesOptions{Namespace: m.namespace, Limit: 1000}) {
		if err != nil {
			return fmt.Errorf("trpc: listing the memories of %s/%s: %w", userKey.AppName, userKey.UserID, err)
		}
		ids = append(ids, mem.ID)
	}
	for _, id := range ids {
		err := m.client.DeleteMemory(ctx, userKey.AppName, userKey.UserID, id)
		if err != nil && !errors.Is(err, mnemo.NotFound) {
			return fmt.Errorf("trpc: clearing the memories of %s/%s: %w", userKey.AppName, userKey.UserID, err)
		}
	}
	return nil
}

// ReadMemories answers the user's memories, most recently updated first,
// at most limit of them (0: all).
func (m *MemoryService) ReadMemories(ctx context.Context, userKey memory.UserKey, limit int) ([]*memory.Entry, error) {
	if err := userKey.CheckUserKey(); err != nil {
		return nil, err
	}
	var entries []*memory.Entry
	for mem, err := range m.client.Memories(ctx, userKey.AppName, userKey.UserID,
		mnemo.ListMemoriesOptions{Namespace: m.namespace, Limit: 1000}) {
		if err != nil {
			return nil, fmt.Errorf("trpc: reading the memories of %s/%s: %w", userKey.AppName, userKey.UserID, err)
		}
		entries = append(entries, entryOf(&mem, 0))
	}
	slices.SortStableFunc(entries, func(a, b *memory.Entry) int { return b.UpdatedAt.Compare(a.UpdatedAt) })
	if limit > 0 && len(entries) > limit {
		entries = entries[:limit]
	}
	return entries, nil
}

// SearchMemories recalls the user's memories best matching query, by words
// and by meaning when mnemod has an embedder. Of tRPC's search options,
// MaxResults and SimilarityThreshold go to mnemod's recall, and Kind,
// TimeAfter and TimeBefore filter what it answers.
func (m *MemoryService) SearchMemories(ctx context.Context, userKey memory.UserKey, query string,
	opts ...memory.SearchOption) ([]*memory.Entry, error) {
	if err := userKey.CheckUserKey(); err != nil {
		return nil, err
	}
	o := memory.ResolveSearchOptions(query, opts)
	req := mnemo.RecallRequest{Query: o.Query, User: userKey.UserID, Namespace: m.namespace,
		Limit: cmp.Or(o.MaxResults, m.limit)}
	if o.SimilarityThreshold > 0 {
		req.MinSimilarity = &o.SimilarityThreshold
	}
	found, err := m.client.Recall(ctx, userKey.AppName, req)
	if err != nil {
		return nil, fmt.Errorf("trpc: searching the memories of %s/%s: %w", userKey.AppName, userKey.UserID, err)
	}
	entries := []*memory.Entry{}
	for i := range found.Memories {
		entry := entryOf(&found.Memories[i].Memory, found.Memories[i].Score)
		if keep(entry.Memory, o) {
			entries = append(entries, entry)
		}
	}
	return entries, nil
}

// Tools are tRPC's own memory tools that its services enable by default
// (add, update, search, load); they reach this service through the
// invocation, as with tRPC's own services.
func (m *MemoryService) Tools() []tool.Tool {
	return []tool.Tool{memorytool.NewAddTool(), memorytool.NewUpdateTool(), memorytool.NewSearchTool(),
		memorytool.NewLoadTool()}
}

// EnqueueAutoMemoryJob does nothing: mnemod's own capture (memory.capture:
// events or extract in its config) turns conversations into memories.
func (m *MemoryService) EnqueueAutoMemoryJob(context.Context, *session.Session) error { return nil }

// Close releases the client's idle connections.
func (m *MemoryService) Close() error {
	m.client.Close()
	return nil
}

func (m *MemoryService) write(ctx context.Context, app, user string, mem *memory.Memory) error {
	_, err := m.client.WriteMemories(ctx, app, user, []mnemo.NewMemory{{ID: memoryID(mem, app, user), Text: mem.Memory,
		Namespace: m.namespace, Metadata: metadataOf(mem)}}, false)
	if err != nil {
		return fmt.Errorf("trpc: writing a memory of %s/%s: %w", app, user, err)
	}
	return nil
}

// memoryID is the id tRPC gives a memory: a hash of its text, app, user and
// episode metadata, so the same memory has the same id.
func memoryID(mem *memory.Memory, app, user string) string {
	var b strings.Builder
	b.WriteString("memory:" + mem.Memory + "|app:" + app + "|user:" + user)
	if kind := identityKind(mem); kind != "" {
		b.WriteString("|kind:" + string(kind))
	}
	if mem.EventTime != nil {
		b.WriteString("|event_time:" + mem.EventTime.UTC().Format(time.RFC3339))
	}
	if len(mem.Participants) > 0 {
		b.WriteString("|participants:" + strings.Join(mem.Participants, ","))
	}
	if mem.Location != "" {
		b.WriteString("|location:" + mem.Location)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// identityKind is the kind that names a memory: a fact counts only when it
// carries episode metadata, as in tRPC.
func identityKind(mem *memory.Memory) memory.Kind {
	hasEpisode := mem.EventTime != nil || len(mem.Participants) > 0 || mem.Location != ""
	switch {
	case mem.Kind != "" && mem.Kind != memory.KindFact:
		return mem.Kind
	case hasEpisode:
		return memory.KindFact
	}
	return ""
}

// applyMetadata sets mem's episode metadata from ep; a patch keeps what ep leaves empty.
func applyMetadata(mem *memory.Memory, ep *memory.Metadata, patch bool) {
	if ep == nil {
		return
	}
	if ep.Kind != "" {
		mem.Kind = ep.Kind
	}
	if !patch || ep.EventTime != nil {
		mem.EventTime = ep.EventTime
	}
	if !patch || len(ep.Participants) > 0 {
		mem.Participants = ep.Participants
	}
	if !patch || ep.Location != "" {
		mem.Location = strings.TrimSpace(ep.Location)
	}
}

func keep(mem *memory.Memory, o memory.SearchOptions) bool {
	if o.Kind != "" && cmp.Or(mem.Kind, memory.KindFact) != o.Kind {
		return false
	}
	if o.TimeAfter != nil && (mem.EventTime == nil || mem.EventTime.Before(*o.TimeAfter)) {
		return false
	}
	return o.TimeBefore == nil || (mem.EventTime != nil && !mem.EventTime.After(*o.TimeBefore))
}
