-- The sandbox payment provider's tables leave the product's schema: its own migrations
-- (server/payments/sandbox/migrations/) create them in the schema `sandbox`, and only where the
-- sandbox is the configured provider. Here, earlier migrations made them in `public`. Empty (a
-- new database, or one that never took a test payment), they go. Holding rows (a database that
-- used the sandbox), they move, rows and all, into `sandbox`, in the shape the sandbox's own
-- first migration makes (same names), which the sandbox then adopts instead of running.
DO $$
DECLARE
  sandbox_tables text[] := ARRAY[
    'sandbox_accounts', 'sandbox_checkouts', 'sandbox_customers', 'sandbox_events', 'sandbox_one_time_purchases',
    'sandbox_payments', 'sandbox_prices', 'sandbox_pro_checkouts', 'sandbox_refunds', 'sandbox_subscriptions'
  ];
  sandbox_table text;
  has_rows boolean;
  any_rows boolean := false;
BEGIN
  IF to_regclass('public.sandbox_accounts') IS NULL THEN
    RETURN;
  END IF;
  FOREACH sandbox_table IN ARRAY sandbox_tables LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I)', sandbox_table) INTO has_rows;
    any_rows := any_rows OR has_rows;
  END LOOP;
  IF any_rows THEN
    CREATE SCHEMA IF NOT EXISTS "sandbox";
  END IF;
  FOREACH sandbox_table IN ARRAY sandbox_tables LOOP
    IF any_rows THEN
      EXECUTE format('ALTER TABLE public.%I SET SCHEMA "sandbox"', sandbox_table);
    ELSE
      EXECUTE format('DROP TABLE public.%I CASCADE', sandbox_table);
    END IF;
  END LOOP;
END $$;
