# payctl bash completion, generated from payctl's command tree: do not edit.
# Install: source <(payctl completion bash)   # or save it as ~/.local/share/bash-completion/completions/payctl

# Subcommands of a command path, one "name:summary" a line.
__payctl_subcommands() {
  case "$1" in
    '') printf '%s\n' 'status:One screen: profile, environment, token, sub-account, balances, withdrawals in processing and recent failures' 'auth:Log in, store a token, show or forget it' 'login:Same as payctl auth login: exchange client credentials for a token and store it in the profile' 'logout:Same as payctl auth logout: forget the profile'\''s token' 'profiles:Manage profiles: base URL, environment, token and sub-account per platform account' 'subaccounts:List and create sub-accounts, and choose the sub-account commands run in' 'cards:Tokenize a credit card for a customer, or read a card token' 'customers:List, show and update customers' 'subs:List, show, update and cancel subscriptions; add and remove splits' 'subscriptions:Same as payctl subs: list, show, update and cancel subscriptions; add and remove splits' 'bank-accounts:List, show and delete the bank accounts withdrawals go to' 'withdraw:Withdraw money to a bank account: pix, card or boleto balance (confirms first)' 'withdrawals:List and show withdrawals and their status' 'balance:Show the balances available for withdrawal, by method, and what is in processing' 'sandbox:Run the local sandbox of the platform, and play its back office' 'audit:Show the audit log: every POST, PUT and DELETE payctl sent, with its outcome' 'ledger:The team'\''s shared ledger of withdrawals: claims, daily totals and audit trail' 'api:Call any API route with the profile'\''s token and account context; prints the response'\''s data as JSON' 'completion:Print the shell completion script for bash, zsh or fish' 'help:Show payctl'\''s help, or a command'\''s: payctl help subs list is payctl subs list --help' 'version:Print payctl'\''s version (also -v, -V, --version)' ;;
    'auth') printf '%s\n' 'login:Exchange client credentials for a token and store it in the profile' 'token:Store a bearer token obtained elsewhere' 'status:Show the profile, base URL, environment, token expiry and sub-account; exit 3 when not usable' 'logout:Forget the profile'\''s token' ;;
    'profiles') printf '%s\n' 'list:List profiles; the current one is marked' 'show:Show one profile (the current one by default); the token itself is never shown' 'add:Add a profile' 'use:Make a profile the current one' 'set:Set a profile'\''s withdrawal limits, csv separator and where its token is kept' 'remove:Remove a profile and its token' ;;
    'subaccounts') printf '%s\n' 'list:List the sub-accounts: the sandbox'\''s, or those this profile has created, used or seen in splits' 'use:Set the profile'\''s active sub-account: bank accounts, withdrawals and balance then run in it' 'clear:Go back to the main account' 'create:Create a sub-account: pf (natural person) or pj (legal entity)' ;;
    'subaccounts create') printf '%s\n' 'pf:Create a natural-person (PF) sub-account' 'pj:Create a legal-entity (PJ) sub-account' ;;
    'cards') printf '%s\n' 'tokenize:Tokenize a credit card and tie it to a customer' 'get:Show one card token: brand, first and last 4 digits, expiry, checks' ;;
    'customers') printf '%s\n' 'list:List customers, a page at a time (or --all)' 'get:Show one customer with its address; as a table, with their subscriptions and cards' 'find:Find customers by e-mail, document, name or phone, scanning every page' 'update:Change a customer: the fields given, nothing else' ;;
    'subs') printf '%s\n' 'list:List subscriptions, filtered, a page at a time (or --all)' 'get:Show one subscription and its splits' 'update:Change a subscription: customer, card, frequency, title, amount, duration, expiration' 'cancel:Cancel a subscription (cannot be undone; confirms first)' 'add-split:Add a split to a subscription: a fixed amount or a percentage to a sub-account' 'remove-split:Remove a split from a subscription (cannot be undone; confirms first)' ;;
    'subscriptions') printf '%s\n' 'list:List subscriptions, filtered, a page at a time (or --all)' 'get:Show one subscription and its splits' 'update:Change a subscription: customer, card, frequency, title, amount, duration, expiration' 'cancel:Cancel a subscription (cannot be undone; confirms first)' 'add-split:Add a split to a subscription: a fixed amount or a percentage to a sub-account' 'remove-split:Remove a split from a subscription (cannot be undone; confirms first)' ;;
    'bank-accounts') printf '%s\n' 'list:List the bank accounts of the account the command runs in' 'get:Show one bank account' 'delete:Delete a bank account (cannot be undone; confirms first)' ;;
    'withdraw') printf '%s\n' 'pix:Withdraw from the PIX balance' 'card:Withdraw from the CARD balance' 'boleto:Withdraw from the boleto (billet) balance' 'batch:Withdraw once per row of a CSV file, with a journal that makes reruns safe' ;;
    'withdrawals') printf '%s\n' 'list:List the withdrawals of the account the command runs in' 'get:Show one withdrawal: amount, net amount, status' ;;
    'sandbox') printf '%s\n' 'start:Start a local, stateful sandbox of the whole API (127.0.0.1:4010 by default) until Ctrl-C' 'approve:Approve a sub-account, so that it can receive splits' 'settle:Settle a PENDING withdrawal as COMPLETED or FAILED (its postback is sent)' 'credit:Add money (integer cents) to the available balances' ;;
    'ledger') printf '%s\n' 'init:Create or upgrade the tables of the profile'\''s team ledger (PostgreSQL)' 'status:Say which ledger the profile uses, whether it answers, its schema version and the claims in flight' ;;
  esac
}

__payctl_is_subcommand() {
  case "$1|$2" in
    '|status'|'|auth'|'|login'|'|logout'|'|profiles'|'|subaccounts'|'|cards'|'|customers'|'|subs'|'|subscriptions'|'|bank-accounts'|'|withdraw'|'|withdrawals'|'|balance'|'|sandbox'|'|audit'|'|ledger'|'|api'|'|completion'|'|help'|'|version'|'auth|login'|'auth|token'|'auth|status'|'auth|logout'|'profiles|list'|'profiles|show'|'profiles|add'|'profiles|use'|'profiles|set'|'profiles|remove'|'subaccounts|list'|'subaccounts|use'|'subaccounts|clear'|'subaccounts|create'|'subaccounts create|pf'|'subaccounts create|pj'|'cards|tokenize'|'cards|get'|'customers|list'|'customers|get'|'customers|find'|'customers|update'|'subs|list'|'subs|get'|'subs|update'|'subs|cancel'|'subs|add-split'|'subs|remove-split'|'subscriptions|list'|'subscriptions|get'|'subscriptions|update'|'subscriptions|cancel'|'subscriptions|add-split'|'subscriptions|remove-split'|'bank-accounts|list'|'bank-accounts|get'|'bank-accounts|delete'|'withdraw|pix'|'withdraw|card'|'withdraw|boleto'|'withdraw|batch'|'withdrawals|list'|'withdrawals|get'|'sandbox|start'|'sandbox|approve'|'sandbox|settle'|'sandbox|credit'|'ledger|init'|'ledger|status') return 0 ;;
  esac
  return 1
}

# Flags of a command path, one "flag:description" a line.
__payctl_flags() {
  case "$1" in
    '') printf '%s\n' '--version:print the version' ;;
    'status') printf '%s\n' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' ;;
    'auth login') printf '%s\n' '--client-id:client id (default: the one stored in the profile)' '--client-secret-stdin:read the client secret from stdin instead of asking' ;;
    'auth token') printf '%s\n' '--stdin:read the token from stdin instead of asking' ;;
    'login') printf '%s\n' '--client-id:client id (default: the one stored in the profile)' '--client-secret-stdin:read the client secret from stdin instead of asking' ;;
    'profiles add') printf '%s\n' '--env:environment (default: local for 127.0.0.1 and localhost, else production)' ;;
    'profiles set') printf '%s\n' '--max-withdrawal:the largest single withdrawal, in cents (R$ 1.000,00 is 100000)' '--clear-max-withdrawal:remove the single-withdrawal limit' '--max-batch-total:the largest total of one batch, in cents' '--clear-max-batch-total:remove the batch limit' '--duplicate-window:how far back a withdrawal looks for its twins on the platform: 30m, 24h, 7d (1m to 30d), default 24h' '--max-daily-total:the team'\''s total per account and calendar day (America/Sao_Paulo), in cents, counted in the ledger' '--clear-max-daily-total:remove the daily limit' '--ledger:the team'\''s ledger: postgres://USER@HOST:PORT/DB (no password in it), or local' '--token-store:where the token is kept: file (the config file, 0600) or keychain' '--yes:do not ask for confirmation' ;;
    'subaccounts create pf') printf '%s\n' '--from-file:whole request body as JSON in the API'\''s shape ('\''-'\'' reads stdin); flags override its values' '--name:Sub-account name (required)' '--partner-name:Partner first name (required)' '--partner-last-name:Partner last name (required)' '--partner-cpf:Partner CPF (check digits verified; required)' '--partner-email:Partner e-mail (required)' '--partner-birthdate:Partner birthdate (YYYY-MM-DD) (required)' '--partner-contact-phone:Partner phone (Brazilian phone with area code; required)' '--partner-month-revenue:Monthly revenue in reais (up to 2 decimals; required)' '--partner-job-occupation:Partner occupation' '--partner-fullname-mom:Partner'\''s mother'\''s full name' '--address-type:Address type (RESPONSIBLE|COMMERCIAL; default RESPONSIBLE)' '--address-zipcode:CEP (8 digits; required)' '--address-street:Street (required)' '--address-street-number:Number (required)' '--address-neighborhood:Neighbourhood (bairro) (required)' '--address-city:City (required)' '--address-state:State (UF) (two-letter UF, such as SP; required)' '--address-complement:Complement' '--address-reference:Reference' '--bank-holder-name:Account holder name (required)' '--bank-document:Holder'\''s CPF or CNPJ (check digits verified; required)' '--bank-code:Bank code (3 digits) (required)' '--bank-routing-number:Branch (agência) (branch digits, optional -check digit; required)' '--bank-account-number:Account number (digits, optional -check digit; required)' '--bank-account-type:Account type (CHECKING|SAVINGS; required)' '--dry-run:print the request that would be sent and send nothing' ;;
    'subaccounts create pj') printf '%s\n' '--from-file:whole request body as JSON in the API'\''s shape ('\''-'\'' reads stdin); flags override its values' '--name:Sub-account name (required)' '--partner-name:Partner first name (required)' '--partner-last-name:Partner last name (required)' '--partner-cpf:Partner CPF (check digits verified; required)' '--partner-email:Partner e-mail (required)' '--partner-birthdate:Partner birthdate (YYYY-MM-DD) (required)' '--partner-contact-phone:Partner phone (Brazilian phone with area code; required)' '--partner-month-revenue:Monthly revenue in reais (up to 2 decimals; required)' '--partner-job-occupation:Partner occupation' '--partner-fullname-mom:Partner'\''s mother'\''s full name' '--legal-cnpj:Company CNPJ (check digits verified; required)' '--legal-contact-phone:Company phone (Brazilian phone with area code; required)' '--legal-fantasy-name:Trade name (nome fantasia) (required)' '--legal-social-reason:Legal name (razão social) (required)' '--legal-avg-anual-billing:Average annual billing in reais (up to 2 decimals; required)' '--legal-searching-services:Services sought' '--legal-social-media:Social media' '--address-type:Address type (RESPONSIBLE|COMMERCIAL; default COMMERCIAL)' '--address-zipcode:CEP (8 digits; required)' '--address-street:Street (required)' '--address-street-number:Number (required)' '--address-neighborhood:Neighbourhood (bairro) (required)' '--address-city:City (required)' '--address-state:State (UF) (two-letter UF, such as SP; required)' '--address-complement:Complement' '--address-reference:Reference' '--bank-holder-name:Account holder name (required)' '--bank-document:Holder'\''s CPF or CNPJ (check digits verified; required)' '--bank-code:Bank code (3 digits) (required)' '--bank-routing-number:Branch (agência) (branch digits, optional -check digit; required)' '--bank-account-number:Account number (digits, optional -check digit; required)' '--bank-account-type:Account type (CHECKING|SAVINGS; required)' '--dry-run:print the request that would be sent and send nothing' ;;
    'cards tokenize') printf '%s\n' '--customer:customer the card is tied to (UUID, or its first 8 characters); searched for by name, e-mail or document when missing' '--holder-name:name exactly as on the card' '--exp-month:expiration month, 01 to 12' '--exp-year:expiration year, 4 digits' '--card-stdin:read the card number, then the security code, one a line, from stdin' '--dry-run:print the request that would be sent and send nothing' ;;
    'customers list') printf '%s\n' '--page:page to show, from 1 (default 1)' '--limit:items per page, 1 to 100 (default 20; 100 with --all)' '--all:every page, in order (fetched a few at a time; a failure mid-way exits non-zero)' ;;
    'customers find') printf '%s\n' '--email:e-mail address, any case' '--document:CPF or CNPJ (check digits verified), with or without punctuation' '--name:part of the first and last name, any case or accents' '--phone:phone number, with or without +55 and punctuation' ;;
    'customers update') printf '%s\n' '--from-file:whole request body as JSON in the API'\''s shape ('\''-'\'' reads stdin); flags override its values' '--first-name:First name' '--last-name:Last name' '--email:E-mail' '--phone-number:Phone (Brazilian phone with area code)' '--document:CPF or CNPJ (check digits verified)' '--birthdate:Birthdate (YYYY-MM-DD)' '--address-zipcode:CEP (8 digits)' '--address-street:Street' '--address-street-number:Number' '--address-complement:Complement' '--address-reference:Reference' '--address-neighborhood:Neighbourhood (bairro)' '--address-city:City' '--address-state:State (UF) (two-letter UF, such as SP)' '--dry-run:print the request that would be sent and send nothing' ;;
    'subs list') printf '%s\n' '--status:only this status: ACTIVE, DELETED, EXPIRED, SUSPENDED' '--title:title contains this text (any case, with or without accents)' '--amount:plan amount equals these cents' '--setup-amount:setup amount equals these cents' '--frequency:days between charges equals this' '--start-date:created on or after this date' '--split-subaccount:has a split to this sub-account' '--customer:only this customer'\''s; reads every page (the API has no such filter)' '--page:page to show, from 1 (default 1)' '--limit:items per page, 1 to 100 (default 20; 100 with --all)' '--all:every page, in order (fetched a few at a time; a failure mid-way exits non-zero)' ;;
    'subs update') printf '%s\n' '--customer:customer id (UUID, or its first 8 characters); the card must be theirs' '--card:card token to charge (UUID, or its first 8 characters)' '--frequency:days between charges, 1 to 365' '--title:title' '--amount:amount in integer cents, at least 100' '--duration:number of charge cycles, 1 to 1200' '--lifetime:no fixed number of cycles nor expiration date (instead of --duration)' '--expiration-date:last day, today or later' '--dry-run:print the request that would be sent and send nothing' ;;
    'subs cancel') printf '%s\n' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'subs add-split') printf '%s\n' '--subscription:subscription id (UUID, or its first 8 characters); picked from the ACTIVE ones when missing' '--receiver:receiving sub-account id (UUID, or its first 8 characters), APPROVED' '--amount:fixed amount in integer cents (not with --percentage)' '--percentage:share of the subscription amount, 0.01 to 100, up to 2 decimals (not with --amount)' '--chargeback-liable:the sub-account answers for chargebacks (default: no)' '--dry-run:print the request that would be sent and send nothing' ;;
    'subs remove-split') printf '%s\n' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'subscriptions list') printf '%s\n' '--status:only this status: ACTIVE, DELETED, EXPIRED, SUSPENDED' '--title:title contains this text (any case, with or without accents)' '--amount:plan amount equals these cents' '--setup-amount:setup amount equals these cents' '--frequency:days between charges equals this' '--start-date:created on or after this date' '--split-subaccount:has a split to this sub-account' '--customer:only this customer'\''s; reads every page (the API has no such filter)' '--page:page to show, from 1 (default 1)' '--limit:items per page, 1 to 100 (default 20; 100 with --all)' '--all:every page, in order (fetched a few at a time; a failure mid-way exits non-zero)' ;;
    'subscriptions update') printf '%s\n' '--customer:customer id (UUID, or its first 8 characters); the card must be theirs' '--card:card token to charge (UUID, or its first 8 characters)' '--frequency:days between charges, 1 to 365' '--title:title' '--amount:amount in integer cents, at least 100' '--duration:number of charge cycles, 1 to 1200' '--lifetime:no fixed number of cycles nor expiration date (instead of --duration)' '--expiration-date:last day, today or later' '--dry-run:print the request that would be sent and send nothing' ;;
    'subscriptions cancel') printf '%s\n' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'subscriptions add-split') printf '%s\n' '--subscription:subscription id (UUID, or its first 8 characters); picked from the ACTIVE ones when missing' '--receiver:receiving sub-account id (UUID, or its first 8 characters), APPROVED' '--amount:fixed amount in integer cents (not with --percentage)' '--percentage:share of the subscription amount, 0.01 to 100, up to 2 decimals (not with --amount)' '--chargeback-liable:the sub-account answers for chargebacks (default: no)' '--dry-run:print the request that would be sent and send nothing' ;;
    'subscriptions remove-split') printf '%s\n' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'bank-accounts list') printf '%s\n' '--page:page to show, from 1 (default 1)' '--limit:items per page, 1 to 100 (default 20; 100 with --all)' '--all:every page, in order (fetched a few at a time; a failure mid-way exits non-zero)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' ;;
    'bank-accounts get') printf '%s\n' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' ;;
    'bank-accounts delete') printf '%s\n' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'withdraw pix') printf '%s\n' '--amount:amount in integer cents, at least 100 (R$ 12,34 is 1234)' '--bank-account:receiving bank account id (see payctl bank-accounts list); asked from that list when missing' '--pix-key-type:DOCUMENT_CPF, DOCUMENT_CNPJ, EMAIL, PHONE or RANDOM (or cpf, cnpj, email, phone, random)' '--pix-key:PIX key valid for its type: CPF/CNPJ with check digits, e-mail, mobile phone, or the random UUID' '--postback-url:http(s) address notified on every status change' '--allow-duplicate:send even if the same withdrawal was made within the profile'\''s --duplicate-window (default 24h)' '--from-csv:a batch: the same as payctl withdraw batch FILE --method METHOD' '--wait:wait until the withdrawal is COMPLETED (exit 0) or FAILED (exit 1)' '--wait-timeout:how long --wait waits, 1 to 86400, default 300; then exit 5 (still PENDING)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'withdraw card') printf '%s\n' '--amount:amount in integer cents, at least 100 (R$ 12,34 is 1234)' '--bank-account:receiving bank account id (see payctl bank-accounts list); asked from that list when missing' '--postback-url:http(s) address notified on every status change' '--allow-duplicate:send even if the same withdrawal was made within the profile'\''s --duplicate-window (default 24h)' '--from-csv:a batch: the same as payctl withdraw batch FILE --method METHOD' '--wait:wait until the withdrawal is COMPLETED (exit 0) or FAILED (exit 1)' '--wait-timeout:how long --wait waits, 1 to 86400, default 300; then exit 5 (still PENDING)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'withdraw boleto') printf '%s\n' '--amount:amount in integer cents, at least 100 (R$ 12,34 is 1234)' '--bank-account:receiving bank account id (see payctl bank-accounts list); asked from that list when missing' '--postback-url:http(s) address notified on every status change' '--allow-duplicate:send even if the same withdrawal was made within the profile'\''s --duplicate-window (default 24h)' '--from-csv:a batch: the same as payctl withdraw batch FILE --method METHOD' '--wait:wait until the withdrawal is COMPLETED (exit 0) or FAILED (exit 1)' '--wait-timeout:how long --wait waits, 1 to 86400, default 300; then exit 5 (still PENDING)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'withdraw batch') printf '%s\n' '--method:pix, card or boleto: the balance every row draws on' '--journal:journal of what was paid, default FILE.journal beside the CSV' '--concurrency:requests in flight at once, 1 to 16, default 4' '--reconcile:settle rows of unknown outcome from withdrawals list, then send the rest' '--allow-duplicate-rows:pay identical rows once each, instead of refusing the file' '--allow-duplicate:send rows that match withdrawals already on the platform within the profile'\''s --duplicate-window (default 24h)' '--sheet:the sheet of an .xlsx FILE to read (default: its first)' '--wait:after sending, wait until every row sent is COMPLETED or FAILED; exit by the worst outcome' '--wait-timeout:how long --wait waits, 1 to 86400, default 300; then exit 5 (still PENDING)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--yes:do not ask for confirmation' '--dry-run:print the request that would be sent and send nothing' ;;
    'withdrawals list') printf '%s\n' '--page:page to show, from 1 (default 1)' '--limit:items per page, 1 to 100 (default 20; 100 with --all)' '--all:every page, in order (fetched a few at a time; a failure mid-way exits non-zero)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' ;;
    'withdrawals get') printf '%s\n' '--wait:wait until the withdrawal is COMPLETED (exit 0) or FAILED (exit 1)' '--wait-timeout:how long --wait waits, 1 to 86400, default 300; then exit 5 (still PENDING)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' ;;
    'balance') printf '%s\n' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' ;;
    'sandbox start') printf '%s\n' '--port:port to listen on; 0 picks a free one (default 4010)' '--host:address to listen on (default 127.0.0.1)' '--seed:seed of the generated data: the same seed gives the same data (default 1)' '--customers:number of acme'\''s customers (default 250)' '--data:load the data from FILE (and FILE.log) at start; every change is on disk before it is answered' '--latency:answer every request after MS milliseconds, as the platform across a network would (default 0)' '--rate-limit:allow each client address N requests a second; past it answer 429 with Retry-After (API routes, not /sandbox/...)' '--fail-rate:answer this share of requests (0 to 1) with 503 (API routes, not /sandbox/...)' '--fail-after-write:with --fail-rate: a failing POST, PUT or DELETE makes its change first, then answers 503' '--settle-after:PENDING withdrawals settle on their own MS milliseconds after their creation' '--settle-failed-share:with --settle-after: the share of withdrawals (0 to 1) that end FAILED (default 0.1)' '--max-connections:connections kept open at most; past it the longest-idle are closed (default: from the open-file limit)' '--tls:serve https with a certificate made at start; prints the file of the authority to trust (NODE_EXTRA_CA_CERTS)' '--quiet:log no requests (by default each is a line on stderr), so a sandbox in the background stays out of your terminal' '--log:append the request log to FILE instead of stderr' ;;
    'sandbox approve') printf '%s\n' '--dry-run:print the request that would be sent and send nothing' ;;
    'sandbox settle') printf '%s\n' '--status:outcome (required)' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--dry-run:print the request that would be sent and send nothing' ;;
    'sandbox credit') printf '%s\n' '--pix:cents to add to the PIX balance' '--card:cents to add to the card balance' '--billet:cents to add to the boleto balance' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--dry-run:print the request that would be sent and send nothing' ;;
    'audit') printf '%s\n' '--since:only entries since then: 2h, 30m, 7d, or a local date or time as tables print it (2026-11-01, 2026-11-01 09:30)' '--all:every entry, not only the last 50' '--team:the team'\''s audit trail, kept in the profile'\''s ledger, instead of this machine'\''s' ;;
    'api') printf '%s\n' '--data:request body: JSON text, @FILE to read a file, or @- to read stdin' '--query:query parameter, repeatable' '--envelope:print the whole response body (data, meta, message) instead of its data' '--paginate:GET only: every page, following page until the last the answer'\''s meta says; each page'\''s data printed as it arrives' '--slurp:with --paginate: print one array of every item instead of an array per page' '--show-secrets:print secret fields of the answer (accessToken, cardNumber, …) as they are, not masked' '--subaccount:run in this sub-account: its id, or its first 8 characters (default: the profile'\''s active one)' '--main-account:run in the main account, ignoring the profile'\''s active sub-account' '--dry-run:print the request that would be sent and send nothing' ;;
  esac
  printf '%s\n' '--profile:profile to use' '--base-url:API base URL, overriding the profile' '--output:output format' '--json:same as --output json' '--fields:comma-separated fields or dot paths to show, in order' '--jq:filter the JSON output with a jq expression, in-process (no jq program needed); prints as jq -r does' '--csv-separator:separator of -o csv: , ; | or tab (default: the profile'\''s csvSeparator, else ,); with ; the file starts with a BOM' '--out:write the workbook of -o xlsx to this file (stdout takes it only when not a terminal)' '--no-input:never prompt; fail naming the missing flags' '--no-color:no colour in tables' '--no-pager:write long tables directly, not through the pager' '--debug:log requests and responses (redacted) to stderr' '--timeout:request timeout (default 30)' '--help:show help'
}

# What the value of flag $2 of command path $1 can be: none, any, files, profiles or "choices V...".
__payctl_flag_value() {
  case "$1|$2" in
    'status|--subaccount') echo 'any' ;;
    'auth login|--client-id') echo 'any' ;;
    'login|--client-id') echo 'any' ;;
    'profiles add|--env') echo 'choices sandbox production local' ;;
    'profiles set|--max-withdrawal') echo 'any' ;;
    'profiles set|--max-batch-total') echo 'any' ;;
    'profiles set|--duplicate-window') echo 'any' ;;
    'profiles set|--max-daily-total') echo 'any' ;;
    'profiles set|--ledger') echo 'any' ;;
    'profiles set|--token-store') echo 'choices file keychain' ;;
    'subaccounts create pf|--from-file') echo 'files' ;;
    'subaccounts create pf|--name') echo 'any' ;;
    'subaccounts create pf|--partner-name') echo 'any' ;;
    'subaccounts create pf|--partner-last-name') echo 'any' ;;
    'subaccounts create pf|--partner-cpf') echo 'any' ;;
    'subaccounts create pf|--partner-email') echo 'any' ;;
    'subaccounts create pf|--partner-birthdate') echo 'any' ;;
    'subaccounts create pf|--partner-contact-phone') echo 'any' ;;
    'subaccounts create pf|--partner-month-revenue') echo 'any' ;;
    'subaccounts create pf|--partner-job-occupation') echo 'any' ;;
    'subaccounts create pf|--partner-fullname-mom') echo 'any' ;;
    'subaccounts create pf|--address-type') echo 'choices RESPONSIBLE COMMERCIAL' ;;
    'subaccounts create pf|--address-zipcode') echo 'any' ;;
    'subaccounts create pf|--address-street') echo 'any' ;;
    'subaccounts create pf|--address-street-number') echo 'any' ;;
    'subaccounts create pf|--address-neighborhood') echo 'any' ;;
    'subaccounts create pf|--address-city') echo 'any' ;;
    'subaccounts create pf|--address-state') echo 'any' ;;
    'subaccounts create pf|--address-complement') echo 'any' ;;
    'subaccounts create pf|--address-reference') echo 'any' ;;
    'subaccounts create pf|--bank-holder-name') echo 'any' ;;
    'subaccounts create pf|--bank-document') echo 'any' ;;
    'subaccounts create pf|--bank-code') echo 'any' ;;
    'subaccounts create pf|--bank-routing-number') echo 'any' ;;
    'subaccounts create pf|--bank-account-number') echo 'any' ;;
    'subaccounts create pf|--bank-account-type') echo 'choices CHECKING SAVINGS' ;;
    'subaccounts create pj|--from-file') echo 'files' ;;
    'subaccounts create pj|--name') echo 'any' ;;
    'subaccounts create pj|--partner-name') echo 'any' ;;
    'subaccounts create pj|--partner-last-name') echo 'any' ;;
    'subaccounts create pj|--partner-cpf') echo 'any' ;;
    'subaccounts create pj|--partner-email') echo 'any' ;;
    'subaccounts create pj|--partner-birthdate') echo 'any' ;;
    'subaccounts create pj|--partner-contact-phone') echo 'any' ;;
    'subaccounts create pj|--partner-month-revenue') echo 'any' ;;
    'subaccounts create pj|--partner-job-occupation') echo 'any' ;;
    'subaccounts create pj|--partner-fullname-mom') echo 'any' ;;
    'subaccounts create pj|--legal-cnpj') echo 'any' ;;
    'subaccounts create pj|--legal-contact-phone') echo 'any' ;;
    'subaccounts create pj|--legal-fantasy-name') echo 'any' ;;
    'subaccounts create pj|--legal-social-reason') echo 'any' ;;
    'subaccounts create pj|--legal-avg-anual-billing') echo 'any' ;;
    'subaccounts create pj|--legal-searching-services') echo 'any' ;;
    'subaccounts create pj|--legal-social-media') echo 'any' ;;
    'subaccounts create pj|--address-type') echo 'choices RESPONSIBLE COMMERCIAL' ;;
    'subaccounts create pj|--address-zipcode') echo 'any' ;;
    'subaccounts create pj|--address-street') echo 'any' ;;
    'subaccounts create pj|--address-street-number') echo 'any' ;;
    'subaccounts create pj|--address-neighborhood') echo 'any' ;;
    'subaccounts create pj|--address-city') echo 'any' ;;
    'subaccounts create pj|--address-state') echo 'any' ;;
    'subaccounts create pj|--address-complement') echo 'any' ;;
    'subaccounts create pj|--address-reference') echo 'any' ;;
    'subaccounts create pj|--bank-holder-name') echo 'any' ;;
    'subaccounts create pj|--bank-document') echo 'any' ;;
    'subaccounts create pj|--bank-code') echo 'any' ;;
    'subaccounts create pj|--bank-routing-number') echo 'any' ;;
    'subaccounts create pj|--bank-account-number') echo 'any' ;;
    'subaccounts create pj|--bank-account-type') echo 'choices CHECKING SAVINGS' ;;
    'cards tokenize|--customer') echo 'any' ;;
    'cards tokenize|--holder-name') echo 'any' ;;
    'cards tokenize|--exp-month') echo 'any' ;;
    'cards tokenize|--exp-year') echo 'any' ;;
    'customers list|--page') echo 'any' ;;
    'customers list|--limit') echo 'any' ;;
    'customers find|--email') echo 'any' ;;
    'customers find|--document') echo 'any' ;;
    'customers find|--name') echo 'any' ;;
    'customers find|--phone') echo 'any' ;;
    'customers update|--from-file') echo 'files' ;;
    'customers update|--first-name') echo 'any' ;;
    'customers update|--last-name') echo 'any' ;;
    'customers update|--email') echo 'any' ;;
    'customers update|--phone-number') echo 'any' ;;
    'customers update|--document') echo 'any' ;;
    'customers update|--birthdate') echo 'any' ;;
    'customers update|--address-zipcode') echo 'any' ;;
    'customers update|--address-street') echo 'any' ;;
    'customers update|--address-street-number') echo 'any' ;;
    'customers update|--address-complement') echo 'any' ;;
    'customers update|--address-reference') echo 'any' ;;
    'customers update|--address-neighborhood') echo 'any' ;;
    'customers update|--address-city') echo 'any' ;;
    'customers update|--address-state') echo 'any' ;;
    'subs list|--status') echo 'choices ACTIVE DELETED EXPIRED SUSPENDED' ;;
    'subs list|--title') echo 'any' ;;
    'subs list|--amount') echo 'any' ;;
    'subs list|--setup-amount') echo 'any' ;;
    'subs list|--frequency') echo 'any' ;;
    'subs list|--start-date') echo 'any' ;;
    'subs list|--split-subaccount') echo 'any' ;;
    'subs list|--customer') echo 'any' ;;
    'subs list|--page') echo 'any' ;;
    'subs list|--limit') echo 'any' ;;
    'subs update|--customer') echo 'any' ;;
    'subs update|--card') echo 'any' ;;
    'subs update|--frequency') echo 'any' ;;
    'subs update|--title') echo 'any' ;;
    'subs update|--amount') echo 'any' ;;
    'subs update|--duration') echo 'any' ;;
    'subs update|--expiration-date') echo 'any' ;;
    'subs add-split|--subscription') echo 'any' ;;
    'subs add-split|--receiver') echo 'any' ;;
    'subs add-split|--amount') echo 'any' ;;
    'subs add-split|--percentage') echo 'any' ;;
    'subscriptions list|--status') echo 'choices ACTIVE DELETED EXPIRED SUSPENDED' ;;
    'subscriptions list|--title') echo 'any' ;;
    'subscriptions list|--amount') echo 'any' ;;
    'subscriptions list|--setup-amount') echo 'any' ;;
    'subscriptions list|--frequency') echo 'any' ;;
    'subscriptions list|--start-date') echo 'any' ;;
    'subscriptions list|--split-subaccount') echo 'any' ;;
    'subscriptions list|--customer') echo 'any' ;;
    'subscriptions list|--page') echo 'any' ;;
    'subscriptions list|--limit') echo 'any' ;;
    'subscriptions update|--customer') echo 'any' ;;
    'subscriptions update|--card') echo 'any' ;;
    'subscriptions update|--frequency') echo 'any' ;;
    'subscriptions update|--title') echo 'any' ;;
    'subscriptions update|--amount') echo 'any' ;;
    'subscriptions update|--duration') echo 'any' ;;
    'subscriptions update|--expiration-date') echo 'any' ;;
    'subscriptions add-split|--subscription') echo 'any' ;;
    'subscriptions add-split|--receiver') echo 'any' ;;
    'subscriptions add-split|--amount') echo 'any' ;;
    'subscriptions add-split|--percentage') echo 'any' ;;
    'bank-accounts list|--page') echo 'any' ;;
    'bank-accounts list|--limit') echo 'any' ;;
    'bank-accounts list|--subaccount') echo 'any' ;;
    'bank-accounts get|--subaccount') echo 'any' ;;
    'bank-accounts delete|--subaccount') echo 'any' ;;
    'withdraw pix|--amount') echo 'any' ;;
    'withdraw pix|--bank-account') echo 'any' ;;
    'withdraw pix|--pix-key-type') echo 'choices DOCUMENT_CPF DOCUMENT_CNPJ EMAIL PHONE RANDOM' ;;
    'withdraw pix|--pix-key') echo 'any' ;;
    'withdraw pix|--postback-url') echo 'any' ;;
    'withdraw pix|--from-csv') echo 'files' ;;
    'withdraw pix|--wait-timeout') echo 'any' ;;
    'withdraw pix|--subaccount') echo 'any' ;;
    'withdraw card|--amount') echo 'any' ;;
    'withdraw card|--bank-account') echo 'any' ;;
    'withdraw card|--postback-url') echo 'any' ;;
    'withdraw card|--from-csv') echo 'files' ;;
    'withdraw card|--wait-timeout') echo 'any' ;;
    'withdraw card|--subaccount') echo 'any' ;;
    'withdraw boleto|--amount') echo 'any' ;;
    'withdraw boleto|--bank-account') echo 'any' ;;
    'withdraw boleto|--postback-url') echo 'any' ;;
    'withdraw boleto|--from-csv') echo 'files' ;;
    'withdraw boleto|--wait-timeout') echo 'any' ;;
    'withdraw boleto|--subaccount') echo 'any' ;;
    'withdraw batch|--method') echo 'choices pix card boleto' ;;
    'withdraw batch|--journal') echo 'files' ;;
    'withdraw batch|--concurrency') echo 'any' ;;
    'withdraw batch|--sheet') echo 'any' ;;
    'withdraw batch|--wait-timeout') echo 'any' ;;
    'withdraw batch|--subaccount') echo 'any' ;;
    'withdrawals list|--page') echo 'any' ;;
    'withdrawals list|--limit') echo 'any' ;;
    'withdrawals list|--subaccount') echo 'any' ;;
    'withdrawals get|--wait-timeout') echo 'any' ;;
    'withdrawals get|--subaccount') echo 'any' ;;
    'balance|--subaccount') echo 'any' ;;
    'sandbox start|--port') echo 'any' ;;
    'sandbox start|--host') echo 'any' ;;
    'sandbox start|--seed') echo 'any' ;;
    'sandbox start|--customers') echo 'any' ;;
    'sandbox start|--data') echo 'files' ;;
    'sandbox start|--latency') echo 'any' ;;
    'sandbox start|--rate-limit') echo 'any' ;;
    'sandbox start|--fail-rate') echo 'any' ;;
    'sandbox start|--settle-after') echo 'any' ;;
    'sandbox start|--settle-failed-share') echo 'any' ;;
    'sandbox start|--max-connections') echo 'any' ;;
    'sandbox start|--log') echo 'files' ;;
    'sandbox settle|--status') echo 'choices COMPLETED FAILED' ;;
    'sandbox settle|--subaccount') echo 'any' ;;
    'sandbox credit|--pix') echo 'any' ;;
    'sandbox credit|--card') echo 'any' ;;
    'sandbox credit|--billet') echo 'any' ;;
    'sandbox credit|--subaccount') echo 'any' ;;
    'audit|--since') echo 'any' ;;
    'api|-d') echo 'files' ;;
    'api|--data') echo 'files' ;;
    'api|-q') echo 'any' ;;
    'api|--query') echo 'any' ;;
    'api|--subaccount') echo 'any' ;;
    *'|--profile') echo 'profiles' ;;
    *'|--base-url') echo 'any' ;;
    *'|-o') echo 'choices table json ndjson csv tsv xlsx' ;;
    *'|--output') echo 'choices table json ndjson csv tsv xlsx' ;;
    *'|--fields') echo 'any' ;;
    *'|--jq') echo 'any' ;;
    *'|--csv-separator') echo 'choices , ; | tab' ;;
    *'|--out') echo 'files' ;;
    *'|--timeout') echo 'any' ;;
    *) echo none ;;
  esac
}

# What argument number $2 (from 0) of command path $1 can be.
__payctl_arg_value() {
  case "$1|$2" in
    'profiles show|0') echo 'profiles' ;;
    'profiles use|0') echo 'profiles' ;;
    'profiles set|0') echo 'profiles' ;;
    'profiles remove|0') echo 'profiles' ;;
    'withdraw batch|0') echo 'files' ;;
    'api|0') echo 'choices GET POST PUT DELETE PATCH' ;;
    'completion|0') echo 'choices bash zsh fish' ;;
    *) echo any ;;
  esac
}

_payctl() {
  local cur="${COMP_WORDS[COMP_CWORD]}" cmdpath="" nargs=0 expect="" word i kind line
  local -a offered=()
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if [[ -n $expect ]]; then expect=""; continue; fi
    case "$word" in
      -*=*) ;;
      -*) [[ $(__payctl_flag_value "$cmdpath" "$word") != none ]] && expect="$word" ;;
      *) if __payctl_is_subcommand "$cmdpath" "$word"; then cmdpath="${cmdpath:+$cmdpath }$word"; else nargs=$((nargs + 1)); fi ;;
    esac
  done
  if [[ -n $expect ]]; then
    kind="$(__payctl_flag_value "$cmdpath" "$expect")"
  elif [[ $cur == -* ]]; then
    while IFS= read -r line; do offered+=("${line%%:*}"); done < <(__payctl_flags "$cmdpath")
    mapfile -t COMPREPLY < <(compgen -W "${offered[*]}" -- "$cur")
    return
  elif [[ -n $(__payctl_subcommands "$cmdpath") ]]; then
    while IFS= read -r line; do offered+=("${line%%:*}"); done < <(__payctl_subcommands "$cmdpath")
    mapfile -t COMPREPLY < <(compgen -W "${offered[*]}" -- "$cur")
    return
  else
    kind="$(__payctl_arg_value "$cmdpath" "$nargs")"
  fi
  case "$kind" in
    'choices '*) mapfile -t COMPREPLY < <(compgen -W "${kind#choices }" -- "$cur") ;;
    profiles) mapfile -t COMPREPLY < <(compgen -W "$(command payctl profiles list -o tsv --fields name 2>/dev/null)" -- "$cur") ;;
    files) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
  esac
}
complete -F _payctl payctl
