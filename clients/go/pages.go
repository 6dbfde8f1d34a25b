package mnemo

import "iter"

// pages yields the items of every page of a listing that pages by token,
// fetching each page as the previous one is consumed. An error ends the
// sequence after being yielded once.
func pages[T any](first string, fetch func(token string) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		token := first
		for {
			items, next, err := fetch(token)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			token = next
		}
	}
}
