package mnemo

import (
	"context"
	"iter"
	"time"
)

// Memory is one user's fact, preference or decision, recalled by words, by
// meaning or both.
type Memory struct {
	ID        string         `json:"id"`
	App       string         `json:"app"`
	User      string         `json:"user"`
	Namespace string         `json:"namespace"`
	Text      string         `json:"text"`
	Metadata  map[string]any `json:"metadata"`
	SessionID string         `json:"session_id,omitempty"`
	// Source is the event a captured memory came from.
	Source *MemorySource `json:"source,omitempty"`
	// Embedding is ready, pending, failed or none.
	Embedding      string     `json:"embedding"`
	EmbeddingModel string     `json:"embedding_model,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	ExpiresAt      *time.Time `json:"expires_at,omitempty"`
	// Vector is there only when read with includeEmbedding.
	Vector []float32 `json:"vector,omitempty"`
}

// MemorySource is the session event a memory was captured from.
type MemorySource struct {
	Session string `json:"session"`
	Seq     int64  `json:"seq"`
}

// NewMemory is a memory to write. The same ID with the same text, namespace
// and metadata is a retry; without an ID, a text equal to one the user has in
// the namespace answers that memory.
type NewMemory struct {
	ID             string         `json:"id,omitempty"`
	Text           string         `json:"text"`
	Namespace      string         `json:"namespace,omitempty"`
	Metadata       map[string]any `json:"metadata,omitempty"`
	SessionID      string         `json:"session_id,omitempty"`
	Embedding      []float32      `json:"embedding,omitempty"`
	EmbeddingModel string         `json:"embedding_model,omitempty"`
	// TTLSeconds: nil keeps memory.ttl; 0 never expires.
	TTLSeconds *int64 `json:"ttl_seconds,omitempty"`
}

// WrittenMemory is what a write did to one memory.
type WrittenMemory struct {
	ID string `json:"id"`
	// Created is false for a retry or a duplicate text.
	Created   bool   `json:"created"`
	Embedding string `json:"embedding"`
}

// MemoryPatch changes a memory; nil fields stay as they are.
type MemoryPatch struct {
	Text       *string        `json:"text,omitempty"`
	Namespace  *string        `json:"namespace,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Embedding  []float32      `json:"embedding,omitempty"`
	TTLSeconds *int64         `json:"ttl_seconds,omitempty"`
}

// ListMemoriesOptions narrows and pages ListMemories.
type ListMemoriesOptions struct {
	Namespace string
	SessionID string
	Limit     int
	PageToken string
}

// MemoryPage is one page of a user's memories, newest first.
type MemoryPage struct {
	Memories      []Memory `json:"memories"`
	NextPageToken string   `json:"next_page_token"`
}

// RecallMode is how recall ranks: by words, by meaning or both fused.
type RecallMode string

// The recall modes.
const (
	RecallKeyword  RecallMode = "keyword"
	RecallSemantic RecallMode = "semantic"
	RecallHybrid   RecallMode = "hybrid"
)

// RecallRequest asks for the memories best matching a query, under exact filters.
type RecallRequest struct {
	// Query is words, a natural question or an exact string.
	Query string `json:"query,omitempty"`
	// Embedding is the query's vector, when the client embeds itself.
	Embedding []float32 `json:"embedding,omitempty"`
	// User keeps only this user's memories; "" is the whole app.
	User      string `json:"user,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	// Metadata keeps memories whose top-level keys equal these values.
	Metadata      map[string]any `json:"metadata,omitempty"`
	CreatedAfter  *time.Time     `json:"created_after,omitempty"`
	CreatedBefore *time.Time     `json:"created_before,omitempty"`
	// Mode "" lets the daemon choose: hybrid with a query vector, else keyword.
	Mode RecallMode `json:"mode,omitempty"`
	// MatchAll asks the keyword side for every word of the query.
	MatchAll bool `json:"-"`
	// Limit defaults to 10, at most 100.
	Limit         int      `json:"limit,omitempty"`
	MinSimilarity *float64 `json:"min_similarity,omitempty"`
}

// RecallResult holds the memories found, best first, and the mode used.
type RecallResult struct {
	Mode     RecallMode       `json:"mode"`
	Memories []RecalledMemory `json:"memories"`
}

// RecalledMemory is a memory found by recall and where it ranked.
type RecalledMemory struct {
	Memory
	Score       float64  `json:"score"`
	Similarity  *float64 `json:"similarity"`
	KeywordRank *int     `json:"keyword_rank"`
	VectorRank  *int     `json:"vector_rank"`
}

// WriteMemories writes a batch of a user's memories, all or nothing. With
// wait, it answers once every memory's embedding is ready or failed. Safe to
// repeat: an id with the same text is a retry, a text without an id is deduplicated.
func (c *Client) WriteMemories(ctx context.Context, app, user string, memories []NewMemory,
	wait bool) ([]WrittenMemory, error) {
	body := struct {
		Memories []NewMemory `json:"memories"`
		Wait     bool        `json:"wait,omitempty"`
	}{memories, wait}
	var out struct {
		Memories []WrittenMemory `json:"memories"`
	}
	if err := c.post(ctx, userPath(app, user)+"/memories", body, true, &out); err != nil {
		return nil, err
	}
	return out.Memories, nil
}

// ListMemories answers one page of a user's memories, newest first.
func (c *Client) ListMemories(ctx context.Context, app, user string, opts ListMemoriesOptions) (*MemoryPage, error) {
	q := query{}.str("namespace", opts.Namespace).str("session_id", opts.SessionID).
		int("limit", int64(opts.Limit)).str("page_token", opts.PageToken)
	var out MemoryPage
	err := c.get(ctx, userPath(app, user)+"/memories", q, &out)
	return result(&out, err)
}

// Memories iterates over every page of ListMemories.
func (c *Client) Memories(ctx context.Context, app, user string, opts ListMemoriesOptions) iter.Seq2[Memory, error] {
	return pages(opts.PageToken, func(token string) ([]Memory, string, error) {
		opts.PageToken = token
		page, err := c.ListMemories(ctx, app, user, opts)
		if err != nil {
			return nil, "", err
		}
		return page.Memories, page.NextPageToken, nil
	})
}

// Memory reads one memory, with its vector when includeEmbedding.
func (c *Client) Memory(ctx context.Context, app, user, id string, includeEmbedding bool) (*Memory, error) {
	var out Memory
	err := c.get(ctx, userPath(app, user)+"/memories/"+seg(id), query{}.flag("include_embedding", includeEmbedding), &out)
	return result(&out, err)
}

// UpdateMemory changes a memory; a changed text is embedded again.
func (c *Client) UpdateMemory(ctx context.Context, app, user, id string, patch MemoryPatch) (*Memory, error) {
	var out Memory
	path := userPath(app, user) + "/memories/" + seg(id)
	err := c.do(ctx, call{method: "PATCH", path: path, body: patch, safe: true}, &out)
	return result(&out, err)
}

// DeleteMemory forgets a memory.
func (c *Client) DeleteMemory(ctx context.Context, app, user, id string) error {
	return c.do(ctx, call{method: "DELETE", path: userPath(app, user) + "/memories/" + seg(id), safe: true}, nil)
}

// Recall finds an app's memories best matching r, under its filters.
func (c *Client) Recall(ctx context.Context, app string, r RecallRequest) (*RecallResult, error) {
	body := struct {
		RecallRequest
		Match string `json:"match,omitempty"`
	}{RecallRequest: r}
	if r.MatchAll {
		body.Match = "all"
	}
	var out RecallResult
	err := c.post(ctx, appPath(app)+"/memories/search", body, true, &out)
	return result(&out, err)
}
