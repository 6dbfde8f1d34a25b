package adk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"google.golang.org/adk/v2/memory"
	"google.golang.org/adk/v2/session"
	"google.golang.org/genai"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// MemoryService is ADK-Go's memory.Service over mnemod's memories: a
// session's text events become memories, found again by mnemod's recall.
type MemoryService struct {
	client    *mnemo.Client
	namespace string
	limit     int
}

var _ memory.Service = (*MemoryService)(nil)

// A MemoryOption configures a MemoryService.
type MemoryOption func(*MemoryService)

// WithNamespace sets the memory namespace AddSessionToMemory writes (default "adk").
func WithNamespace(namespace string) MemoryOption {
	return func(m *MemoryService) { m.namespace = namespace }
}

// WithLimit sets how many memories SearchMemory answers at most (default 10, at most 100).
func WithLimit(limit int) MemoryOption { return func(m *MemoryService) { m.limit = limit } }

// NewMemoryService makes a MemoryService that stores through client.
func NewMemoryService(client *mnemo.Client, opts ...MemoryOption) *MemoryService {
	m := &MemoryService{client: client, namespace: "adk", limit: 10}
	for _, opt := range opts {
		opt(m)
	}
	return m
}

// batch is the most memories mnemod takes in one write (limits.max_batch_events).
const batch = 256

// AddSessionToMemory files each text event of s as a memory of its user,
// under an id made of the session's and the event's ids: adding a session
// again, as ADK does during its lifetime, adds only its new events.
func (m *MemoryService) AddSessionToMemory(ctx context.Context, s session.Session) error {
	var memories []mnemo.NewMemory
	for event := range s.Events().All() {
		text := textOf(event.Content)
		if text == "" {
			continue
		}
		memories = append(memories, mnemo.NewMemory{
			ID:        memoryID(s.ID(), event.ID),
			Text:      text,
			Namespace: m.namespace,
			SessionID: nameOrEmpty(s.ID()),
			Metadata: map[string]any{
				"author":     event.Author,
				"event_id":   event.ID,
				"session_id": s.ID(),
				"timestamp":  event.Timestamp.UTC().Format(time.RFC3339Nano),
			},
		})
	}
	for start := 0; start < len(memories); start += batch {
		chunk := memories[start:min(start+batch, len(memories))]
		if _, err := m.client.WriteMemories(ctx, s.AppName(), s.UserID(), chunk, false); err != nil {
			return fmt.Errorf("adk: adding session %s/%s/%s to memory: %w", s.AppName(), s.UserID(), s.ID(), err)
		}
	}
	return nil
}

// SearchMemory recalls the user's memories (every namespace) best matching
// the query: by words and by meaning when mnemod has an embedder, else by
// words, so a natural question works either way.
func (m *MemoryService) SearchMemory(ctx context.Context, req *memory.SearchRequest) (*memory.SearchResponse, error) {
	found, err := m.client.Recall(ctx, req.AppName, mnemo.RecallRequest{Query: req.Query, User: req.UserID,
		Limit: m.limit})
	if err != nil {
		return nil, fmt.Errorf("adk: searching the memory of %s/%s: %w", req.AppName, req.UserID, err)
	}
	entries := make([]memory.Entry, 0, len(found.Memories))
	for _, mem := range found.Memories {
		author, _ := mem.Metadata["author"].(string)
		role := genai.RoleModel
		if author == "user" {
			role = genai.RoleUser
		}
		when := mem.CreatedAt
		if stamp, ok := mem.Metadata["timestamp"].(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
				when = t
			}
		}
		entries = append(entries, memory.Entry{
			ID:             mem.ID,
			Content:        genai.NewContentFromText(mem.Text, genai.Role(role)),
			Author:         author,
			Timestamp:      when,
			CustomMetadata: mem.Metadata,
		})
	}
	return &memory.SearchResponse{Memories: entries}, nil
}

// memoryID names the memory of one event: the same for every call, and
// within mnemod's name rules whatever the ids hold.
func memoryID(sessionID, eventID string) string {
	sum := sha256.Sum256([]byte(sessionID + "\x00" + eventID))
	return "adk-" + hex.EncodeToString(sum[:16])
}

// nameOrEmpty is id when it follows mnemod's name rules (1 to 128 bytes of
// A-Z a-z 0-9 . _ : @ -), else "": a memory's session_id must be a name,
// and its metadata keeps the session id whatever it holds.
func nameOrEmpty(id string) string {
	if len(id) == 0 || len(id) > 128 || id == "." || id == ".." {
		return ""
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("._:@-", r)) {
			return ""
		}
	}
	return id
}
