import { useEffect } from 'react';
import { errorMessage } from '@persona/web-kit/api-client';
import { useToast } from '@persona/web-kit/toast';

/**
 * Spec §8's load-failure toasts ("Failed to fetch orders", "Error fetching books", ...): shown once
 * per failure. `description` is fixed text, or omitted to show the server's message.
 */
export function useFailureToast(error: unknown, title: string, description?: string): void {
  const { toast } = useToast();
  useEffect(() => {
    if (!error) return;
    toast({ title, description: description ?? errorMessage(error), variant: 'destructive' });
  }, [error, title, description, toast]);
}
