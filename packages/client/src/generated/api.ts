// Generated from the service's OpenAPI document by `npm run generate -w @ces/client`; do not edit.
// A test fails when it no longer matches the document.

export interface paths {
    "/service-api/1.0/choreos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Choreos
         * @description The ids of the catalogue's Choreos and of the account's own, each once, as far as the credentials may see.
         */
        get: operations["listChoreos"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/choreos/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Choreo details
         * @description A Choreo's inputs and outputs, each with its description and type; `version` for one of the account's own.
         */
        get: operations["getChoreo"];
        /**
         * Create or replace one of the account's own Choreos
         * @description Extension. Stores the Choreo document of the body (JSON only) as a new version of the id. A document that is not one answers 400 with `problems`, each at a JSON pointer.
         */
        put: operations["putChoreo"];
        /**
         * Run a Choreo
         * @description Starts a run with the inputs of the body (JSON or XML; empty for none). Waits for its end as long as the service allows and answers 200 with the outputs, or 202 with the execution to poll. Extensions: `preset` and `outputFilters` in the body; `mode`, `source_id`, `store_results` and `notify` in the query; `Prefer: respond-async` and `Idempotency-Key` as headers.
         */
        post: operations["runChoreo"];
        /**
         * Delete one of the account's own Choreos
         * @description Extension. The id is gone for reading and running; runs already accepted keep the definition they were accepted with.
         */
        delete: operations["deleteChoreo"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/choreo-executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List executions
         * @description Without parameters, the account's executions still RUNNING, of the Choreos the credentials may see. With any parameter (extension), its retained executions newest first, in pages.
         */
        get: operations["listExecutions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/choreo-executions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Execution status
         * @description An execution's status; `?view=outputs` adds its outputs, `?view=steps` its step history (extensions).
         */
        get: operations["getExecution"];
        put?: never;
        post?: never;
        /**
         * Terminate an execution
         * @description Ends a RUNNING execution as TERMINATED_MANUALLY, after its current step; one that has ended already answers 409.
         */
        delete: operations["terminateExecution"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/choreo-executions/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run events
         * @description Extension. The run as Server-Sent Events (`text/event-stream`), one per step and iteration start and end, wait begun and child started, then `execution.ended` with the status resource's `execution`, after which the server closes the stream. Each event has an `id`: a client that reconnects with it as `Last-Event-ID` gets exactly the events after it. A comment `: heartbeat` comes every `EVENTS_HEARTBEAT_MS` (15 s by default). For a run that has ended, what is kept is replayed, then `execution.ended`. Event types: `step.started`, `step.ended`, `iteration.started`, `iteration.ended` (data: `type`, `time`, `address`, `step` (not for iterations), `iteration` (inside a loop), `attempt`, `host`; the ends add `outcome` `succeeded`|`failed`|`stopped`, `durationMs` and `error` when failed), `wait.started` (`address`, `waitFor` `time`|`callback`|`child`, `until` when bounded, `child`: the execution id waited for), `child.started` (`address`, `child`: its execution id), `execution.ended` (`execution`). Times are epoch milliseconds as text. Errors are JSON, as the status resource answers them.
         */
        get: operations["getExecutionEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/choreo-executions/{id}/redrive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redrive a failed execution
         * @description Extension. Starts a new execution of a run that ended ERROR or TERMINATED_LIMIT, with the same Choreo version, options and inputs (those of the body, JSON or XML as for a run, replace theirs), reusing the results of every step and loop iteration it completed: the failed step, the iterations and parallel branches that did not complete (from their start) and what follows run. The new execution names the old one (`redriveOf`), the old one its latest redrive (`redrivenBy`) and keeps its status. One redrive of a run at a time: 409 while one has not ended, or when the run did not fail.
         */
        post: operations["redriveExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's presets
         * @description Extension. The names of the stored input sets of the account.
         */
        get: operations["listPresets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/presets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preset details
         * @description Extension. A preset's inputs, values masked; `?values=shown` shows those not secret, to credentials that may write presets.
         */
        get: operations["getPreset"];
        /**
         * Create or replace a preset
         * @description Extension. Stores a named input set (values sealed at rest) that a run names with `preset`.
         */
        put: operations["putPreset"];
        post?: never;
        /**
         * Delete a preset
         * @description Extension. Runs already accepted keep the inputs they took from it.
         */
        delete: operations["deletePreset"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks
         * @description Extension. The account's subscriptions by name, never their secrets.
         */
        get: operations["listWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/webhooks/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show a webhook
         * @description Extension. A subscription as written, whether a 410 disabled it, and whether a rotated secret still signs; never its secret.
         */
        get: operations["getWebhook"];
        /**
         * Create or replace a webhook
         * @description Extension. Subscribes an `https` URL to runs’ events (`execution.started`, `execution.ended`, `execution.failed`), signed as Standard Webhooks. Created (201), the answer holds its signing secret, never shown again; replaced (200), it keeps its secret and is enabled again. `notify` with `{}` creates the secret that signs runs’ own call-backs (`?notify=`).
         */
        put: operations["putWebhook"];
        post?: never;
        /**
         * Delete a webhook
         * @description Extension. Nothing more is sent to it; its pending deliveries end dead. `notify` deletes the notify secret.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/webhooks/{name}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a webhook's secret
         * @description Extension. A new signing secret, answered once; the one it replaces still signs beside it for 24 hours. `notify` rotates the notify secret.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/webhooks/{name}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's recent deliveries
         * @description Extension. Newest first: event, execution, attempts, last status and error, next attempt, delivered or dead.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/webhooks/{name}/deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Extension. Sends the delivery again, with the same `webhook-id` and body, retried as a new one would be, whatever it came to before.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's schedules
         * @description Extension. Every schedule of the account, by name, with its state, next ticks, last run and counts.
         */
        get: operations["listSchedules"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/schedules/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Schedule details
         * @description Extension. The schedule, its state, its next five ticks, its last run and its status, and its fired, skipped and missed counts.
         */
        get: operations["getSchedule"];
        /**
         * Create or replace a schedule
         * @description Extension. Runs a Choreo at the times of a cron expression in a time zone, or every fixed interval; each tick starts one run. A replace starts from the first tick after now. A document that is not one answers 400 with `problems`, each at a JSON pointer.
         */
        put: operations["putSchedule"];
        post?: never;
        /**
         * Delete a schedule
         * @description Extension. No tick fires after it; a run in flight is left alone.
         */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/schedules/{name}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a schedule
         * @description Extension. No tick fires until it is resumed; a run in flight goes on. The optional note says why.
         */
        post: operations["pauseSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/schedules/{name}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a schedule
         * @description Extension. Fires again from the first tick after now: the ticks while it was paused are not caught up. The optional note says why.
         */
        post: operations["resumeSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/schedules/{name}/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a schedule now
         * @description Extension. Starts a tick now, answered as an asynchronous run is; it counts as a run of the schedule. While the run of its last tick goes on: under `skip` it starts nothing and answers 409 (counted as skipped); under `buffer-one` the tick waits and starts once that run has ended, answered 202 with the id its run will have and the status `BUFFERED`, without `Location` (409, counted as skipped, when another tick waits already).
         */
        post: operations["triggerSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/schedules/{name}/backfill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the ticks of a past range
         * @description Extension. Starts each tick of the schedule between `from` and `to` (epoch ms, both inclusive, any past range) once, oldest first, under the overlap policy (under `buffer-one`, while a run goes on, one tick waits and starts once it has ended); a tick whose run started before starts nothing. At most 1000 ticks a request.
         */
        post: operations["backfillSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/callbacks/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Visit a callback URL (GET)
         * @description Public, no credentials: the token is the permission. Records the request — method, query, headers but credentials, body — for the account's GetCallbackData, then redirects to the forwarding URL, or answers 200. Any method is recorded; an unknown or expired token is 404.
         */
        get: operations["captureCallbackGet"];
        put?: never;
        /**
         * Visit a callback URL (POST)
         * @description Public, no credentials: the token is the permission. Records the request — method, query, headers but credentials, body — for the account's GetCallbackData, then redirects to the forwarding URL, or answers 200. Any method is recorded; an unknown or expired token is 404.
         */
        post: operations["captureCallbackPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/run-callbacks/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver a call back to a waiting run
         * @description Public, no credentials: the unguessable token is the permission. Hands the body (JSON, else its text) to the run that waits for it, once. A forged, used or expired token is 404; a run that has ended, 409.
         */
        post: operations["deliverRunCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description For orchestrators: 200 while the process runs. No credentials; JSON whatever Accept says.
         */
        get: operations["liveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description For load balancers: 200 while Redis answers, 503 otherwise; the live worker count is for people. No credentials.
         */
        get: operations["readiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The OpenAPI 3.1 document of the service, generated from the schemas its routes validate with. No credentials.
         */
        get: operations["openApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/service-api/1.0/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The interface reference page
         * @description This document rendered, with "Try it out" against this server; its scripts and styles are served from here, nothing from elsewhere. No credentials.
         */
        get: operations["apiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ChoreoList: {
            resources: string[];
        };
        /** @description The one error shape; in XML `<error><code/><message/><requestId/></error>`. */
        Error: {
            error: {
                message: string;
                /** @description One of the codes under Errors in the documentation; it maps one to one to the status. */
                code: string;
                /** @description The X-Request-Id of the answer. */
                requestId: string;
                /** @description For a document that is not one (a Choreo, a schedule, a backfill): each problem at an RFC 6901 pointer. */
                problems?: {
                    pointer: string;
                    message: string;
                }[];
            };
        };
        /** @description In XML, inputs and outputs are lists of `<input>`/`<output>` with `<name>`. */
        ChoreoDetails: {
            /** @enum {string} */
            valid: "true" | "false";
            /** @description Extension, for the account's own Choreos. */
            version?: string;
            inputs: {
                [key: string]: {
                    description: string;
                    type: string;
                };
            };
            outputs: {
                [key: string]: {
                    description: string;
                    type: string;
                };
            };
        };
        /** @description A run that ended while the request waited. */
        RunResult: {
            /** @description Outputs by name. */
            output: {
                [key: string]: string;
            };
            execution: {
                id: string;
                /** @enum {string} */
                status: "RUNNING" | "SUCCESS" | "ERROR" | "TERMINATED_MANUALLY" | "TERMINATED_LIMIT";
                /** @description Epoch milliseconds, as text; empty while not ended. */
                starttime: string;
                /** @description Epoch milliseconds, as text; empty while not ended. */
                endtime: string;
                /** @description Extension. The version of the account's own Choreo that runs. */
                version?: string;
                /** @description Extension, on ERROR only. */
                lasterror?: string;
                /** @description Extension, on ERROR only. */
                errortime?: string;
            };
        };
        /** @description A run still going; `Location` names its status. */
        RunAccepted: {
            id: string;
            execution: components["schemas"]["Execution"];
        };
        Execution: {
            id: string;
            choreo: string;
            /** @description Epoch milliseconds, as text; empty while not ended. */
            starttime: string;
            /** @description Epoch milliseconds, as text; empty while not ended. */
            endtime: string;
            /** @description The worker that runs it; empty while it waits. */
            host: string;
            /** @enum {string} */
            status: "RUNNING" | "SUCCESS" | "ERROR" | "TERMINATED_MANUALLY" | "TERMINATED_LIMIT";
            /** @description Extension. The version of the account's own Choreo that runs. */
            version?: string;
            /** @description Extension. The schedule that started the run. */
            schedule?: string;
            /** @description Extension. The scheduled time of the schedule's tick that started the run, epoch ms. */
            scheduledTime?: string;
            /** @description Extension, on ERROR only. */
            lasterror?: string;
            /** @description Extension, on ERROR only. */
            errortime?: string;
            /** @description Extension. On a redrive: the execution it redrives. */
            redriveOf?: string;
            /** @description Extension. On a run redriven: its latest redrive. */
            redrivenBy?: string;
        };
        /** @description The inputs of a run, by name. */
        RunRequest: {
            inputs?: {
                name: string;
                /** @description Numbers and booleans are taken as written. */
                value: string | number | boolean;
            }[];
            /** @description Extension. Queries run on outputs after the run; each result is an output of its own. */
            outputFilters?: {
                name: string;
                /** @description An XPath or JSON path run on the output. */
                path: string;
                /** @description The output the path is run on. */
                variable: string;
            }[];
            /** @description Extension. A stored input set of the account: its inputs fill those the body does not give. */
            preset?: string;
        };
        RunningExecutions: {
            executions: {
                id: string;
                choreo: string;
                /** @description Epoch milliseconds, as text; empty while not ended. */
                starttime: string;
                host: string;
                /** @enum {string} */
                status: "RUNNING" | "SUCCESS" | "ERROR" | "TERMINATED_MANUALLY" | "TERMINATED_LIMIT";
            }[];
        };
        ExecutionHistory: {
            executions: {
                id: string;
                choreo: string;
                /** @description Epoch milliseconds, as text; empty while not ended. */
                starttime: string;
                host: string;
                /** @enum {string} */
                status: "RUNNING" | "SUCCESS" | "ERROR" | "TERMINATED_MANUALLY" | "TERMINATED_LIMIT";
                endtime: string;
                /** @description Extension. The schedule that started the run. */
                schedule?: string;
                /** @description Extension. The scheduled time of the schedule's tick that started the run, epoch ms. */
                scheduledTime?: string;
            }[];
            /** @description The cursor of the next page; absent on the last. */
            next?: string;
        };
        ExecutionStatus: {
            execution: components["schemas"]["Execution"];
            /** @description With `?view=outputs`. */
            output?: {
                [key: string]: string;
            };
            /** @description With `?view=steps`: one entry per attempt of each step. */
            steps?: {
                id: string;
                address: string;
                iteration?: string;
                attempt: string;
                start: string;
                end: string;
                duration: string;
                host: string;
                outcome: string;
                error?: string;
            }[];
            /** @description Events left out past the bound of the history. */
            dropped?: {
                count: string;
                after: string;
            };
        };
        PresetList: {
            presets: string[];
        };
        Preset: {
            name: string;
            inputs: {
                name: string;
                /** @description `********` unless shown. */
                value: string;
                secret: boolean;
            }[];
        };
        /** @description The inputs a preset stores. */
        PresetRequest: {
            inputs: {
                name: string;
                value: string | number | boolean;
                /** @description A secret value is never shown again. */
                secret?: boolean;
            }[];
        };
        WebhookList: {
            webhooks: {
                name: string;
                url: string;
                events: ("execution.started" | "execution.ended" | "execution.failed")[];
                choreos?: string[];
                /** @description Epoch milliseconds, as text. */
                created: string;
                /** @description Epoch milliseconds, as text. */
                updated: string;
                /** @description Present once the endpoint answered 410: nothing is sent until the webhook is written again. */
                disabled?: {
                    /** @description Epoch milliseconds, as text. */
                    at: string;
                    reason: string;
                };
                /** @description While a rotated secret still signs beside the new one: until when. */
                previousSecretUntil?: string;
            }[];
        };
        /** @description A subscription; `secret` only in the answer that created it. */
        Webhook: {
            name: string;
            url: string;
            events: ("execution.started" | "execution.ended" | "execution.failed")[];
            choreos?: string[];
            /** @description Epoch milliseconds, as text. */
            created: string;
            /** @description Epoch milliseconds, as text. */
            updated: string;
            /** @description Present once the endpoint answered 410: nothing is sent until the webhook is written again. */
            disabled?: {
                /** @description Epoch milliseconds, as text. */
                at: string;
                reason: string;
            };
            /** @description While a rotated secret still signs beside the new one: until when. */
            previousSecretUntil?: string;
            /** @description The signing secret (`whsec_…`): answered once, when it is made. */
            secret?: string;
        };
        /** @description The secret that signs runs' own call-backs (`?notify=`). */
        NotifySecret: {
            /** @enum {string} */
            name: "notify";
            /** @description Epoch milliseconds, as text. */
            created: string;
            /** @description While a rotated secret still signs beside the new one: until when. */
            previousSecretUntil?: string;
            /** @description The signing secret (`whsec_…`): answered once, when it is made. */
            secret?: string;
        };
        /** @description A subscription; for `notify`, an empty object. XML: `<webhook><url/><events><event/></events><choreos><choreo/></choreos></webhook>`. */
        WebhookRequest: {
            /** @description Where deliveries are POSTed: an `https` URL. */
            url: string;
            events: ("execution.started" | "execution.ended" | "execution.failed")[];
            /** @description Choreo patterns of the runs it wants; every run its writer may see without them. */
            choreos?: string[];
        };
        /** @description The new secret; the one it replaces signs beside it until `previousSecretUntil`. */
        RotatedSecret: {
            name: string;
            /** @description The signing secret (`whsec_…`): answered once, when it is made. */
            secret: string;
            /** @description Epoch milliseconds, as text. */
            previousSecretUntil: string;
        };
        /** @description Newest first. */
        WebhookDeliveries: {
            deliveries: {
                /** @description The `webhook-id` of every attempt. */
                id: string;
                /** @enum {string} */
                event: "execution.started" | "execution.ended" | "execution.failed";
                /** @description The execution id. */
                execution: string;
                /** @enum {string} */
                state: "pending" | "delivered" | "dead";
                attempts: string;
                /** @description Epoch milliseconds, as text. */
                created: string;
                /** @description The endpoint's last HTTP status; 0 when it did not answer. */
                lastStatus?: string;
                lastError?: string;
                /** @description While pending. */
                nextAttempt?: string;
                /** @description Epoch milliseconds, as text. */
                deliveredAt?: string;
            }[];
        };
        WebhookDelivery: {
            /** @description The `webhook-id` of every attempt. */
            id: string;
            /** @enum {string} */
            event: "execution.started" | "execution.ended" | "execution.failed";
            /** @description The execution id. */
            execution: string;
            /** @enum {string} */
            state: "pending" | "delivered" | "dead";
            attempts: string;
            /** @description Epoch milliseconds, as text. */
            created: string;
            /** @description The endpoint's last HTTP status; 0 when it did not answer. */
            lastStatus?: string;
            lastError?: string;
            /** @description While pending. */
            nextAttempt?: string;
            /** @description Epoch milliseconds, as text. */
            deliveredAt?: string;
        };
        ScheduleList: {
            schedules: {
                name: string;
                choreo: string;
                inputs: {
                    name: string;
                    value: string;
                }[];
                preset?: string;
                cron?: string;
                timezone?: string;
                every?: string;
                /** @enum {string} */
                overlap: "skip" | "buffer-one" | "allow-all";
                catchupWindowSeconds: number;
                note?: string;
                /** @enum {string} */
                state: "active" | "paused";
                /** @description The note of the last pause or resume. */
                stateNote?: string;
                /** @description The next five ticks; empty while paused. */
                nextTimes: string[];
                /** @description Ticks that started a run (triggers and backfills included). */
                fired: number;
                /** @description Ticks the overlap policy started nothing for. */
                skipped: number;
                /** @description Ticks older than the catch-up window when a worker came to them. */
                missed: number;
                /** @description Under `buffer-one`: the tick waiting for the last run to end. */
                bufferedTime?: string;
                /** @description The run of the last tick that started one. */
                lastRun?: {
                    id: string;
                    /** @description Epoch milliseconds, as text. */
                    scheduledTime: string;
                    /** @description Its status, or `GONE` once no longer kept. */
                    status: string;
                };
            }[];
        };
        Schedule: {
            name: string;
            choreo: string;
            inputs: {
                name: string;
                value: string;
            }[];
            preset?: string;
            cron?: string;
            timezone?: string;
            every?: string;
            /** @enum {string} */
            overlap: "skip" | "buffer-one" | "allow-all";
            catchupWindowSeconds: number;
            note?: string;
            /** @enum {string} */
            state: "active" | "paused";
            /** @description The note of the last pause or resume. */
            stateNote?: string;
            /** @description The next five ticks; empty while paused. */
            nextTimes: string[];
            /** @description Ticks that started a run (triggers and backfills included). */
            fired: number;
            /** @description Ticks the overlap policy started nothing for. */
            skipped: number;
            /** @description Ticks older than the catch-up window when a worker came to them. */
            missed: number;
            /** @description Under `buffer-one`: the tick waiting for the last run to end. */
            bufferedTime?: string;
            /** @description The run of the last tick that started one. */
            lastRun?: {
                id: string;
                /** @description Epoch milliseconds, as text. */
                scheduledTime: string;
                /** @description Its status, or `GONE` once no longer kept. */
                status: string;
            };
        };
        /** @description What a schedule runs and when. */
        ScheduleRequest: {
            /** @description The id of the Choreo each tick runs, such as `/Library/Utilities/Encoding/Base64Encode`. */
            choreo: string;
            inputs?: {
                name: string;
                value: string | number | boolean;
            }[];
            /** @description A preset of the account whose inputs fill those not given (as a run's `preset`). */
            preset?: string;
            /** @description A cron expression of 5 fields, or 6 with seconds first. Exactly one of `cron` and `every`. */
            cron?: string;
            /** @description A fixed interval such as `1s`, `30s`, `5m`, `1h`, aligned on the epoch. */
            every?: string;
            /** @description The IANA time zone of `cron`; `UTC` when left out. */
            timezone?: string;
            /**
             * @description A tick while the last run goes on: `skip` (default) starts nothing, `buffer-one` keeps one to start when it ends, `allow-all` starts it.
             * @enum {string}
             */
            overlap?: "skip" | "buffer-one" | "allow-all";
            /** @description Ticks missed (no worker, outage) within this many seconds are started late; older ones are counted as missed. 3600 when left out. */
            catchupWindowSeconds?: number;
            paused?: boolean;
            note?: string;
        };
        ScheduleStateChange: {
            /** @description Why; shown with the schedule as `stateNote`. */
            note?: string;
        };
        /** @description Under `buffer-one`, while the last run goes on: the tick waits and starts once that run has ended. No `Location`: its run exists from then on. */
        TickBuffered: {
            /** @description The id its run will have. */
            id: string;
            execution: {
                id: string;
                choreo: string;
                /**
                 * @description Empty: not started.
                 * @enum {string}
                 */
                starttime: "";
                /** @enum {string} */
                endtime: "";
                /** @enum {string} */
                host: "";
                /** @enum {string} */
                status: "BUFFERED";
                schedule: string;
                /** @description Epoch milliseconds, as text. */
                scheduledTime: string;
            };
        };
        Backfill: {
            /** @description Ticks of the range. */
            ticks: number;
            started: {
                id: string;
                /** @description Epoch milliseconds, as text. */
                scheduledTime: string;
            }[];
            /** @description Ticks the overlap policy started nothing for. */
            skipped: number;
            /** @description Ticks whose run had started before (a backfill given twice). */
            existing: number;
            /** @description Under `buffer-one`: the tick left waiting for the last run to end, and the id its run will have. */
            buffered?: {
                id: string;
                /** @description Epoch milliseconds, as text. */
                scheduledTime: string;
            };
        };
        BackfillRequest: {
            /** @description Epoch ms, inclusive. */
            from: number | string;
            /** @description Epoch ms, inclusive; not in the future. */
            to: number | string;
        };
        CallbackDelivered: {
            callback: {
                /** @enum {boolean} */
                delivered: true;
            };
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable";
            /** @enum {string} */
            redis: "up" | "down";
            workers: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listChoreos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Choreo ids. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChoreoList"];
                    "application/xml": components["schemas"]["ChoreoList"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    getChoreo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The Choreo id without its leading slash, such as `Library/Utilities/Encoding/Base64Encode`; slashes stay as they are. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Choreo's details. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChoreoDetails"];
                    "application/xml": components["schemas"]["ChoreoDetails"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    putChoreo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The Choreo id without its leading slash, such as `Library/Utilities/Encoding/Base64Encode`; slashes stay as they are. */
                id: string;
            };
            cookie?: never;
        };
        /** @description A Choreo document (see the Choreo language documentation for its steps). */
        requestBody: {
            content: {
                "application/json": {
                    description: string;
                    timeLimitSeconds?: number;
                    /** @default {} */
                    inputs?: {
                        [key: string]: {
                            description: string;
                            /**
                             * @default STRING_VARIABLE
                             * @constant
                             */
                            type?: "STRING_VARIABLE";
                            /** @default false */
                            required?: boolean;
                            default?: string;
                            secret?: boolean;
                        };
                    };
                    /** @default {} */
                    outputs?: {
                        [key: string]: {
                            description: string;
                            /**
                             * @default STRING_VARIABLE
                             * @constant
                             */
                            type?: "STRING_VARIABLE";
                            value: string;
                            secret?: boolean;
                        };
                    };
                    steps: unknown[];
                };
            };
        };
        responses: {
            /** @description Replaced: the new version. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChoreoDetails"];
                    "application/xml": components["schemas"]["ChoreoDetails"];
                };
            };
            /** @description Created; `Location` names it. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChoreoDetails"];
                    "application/xml": components["schemas"]["ChoreoDetails"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    runChoreo: {
        parameters: {
            query?: {
                /** @description Extension. `async` answers 202 at once; `sync` waits for the end as long as the service allows. Without it, `Prefer: respond-async` decides. */
                mode?: "async" | "sync";
                /** @description Extension. The caller's own reference for the run, kept with it. */
                source_id?: string;
                /** @description Extension. `true` or `1` keeps the outputs of a synchronous run for later reads (`?view=outputs`). */
                store_results?: string;
                /** @description Extension. An `https` URL the run's end is delivered to as a webhook, signed with the account's notify secret (`PUT /webhooks/notify`). */
                notify?: string;
            };
            header?: {
                /** @description Extension. `respond-async` asks for 202 at once (RFC 7240); answered with `Preference-Applied`. */
                prefer?: string;
                /** @description Extension. The same key with the same request answers with the first run (`Idempotent-Replayed: true`); with another request, 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The Choreo id without its leading slash, such as `Library/Utilities/Encoding/Base64Encode`; slashes stay as they are. */
                id: string;
            };
            cookie?: never;
        };
        /** @description The inputs; optional. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RunRequest"];
                "application/xml": components["schemas"]["RunRequest"];
            };
        };
        responses: {
            /** @description The run ended while the request waited: its outputs. */
            200: {
                headers: {
                    /** @description `true` when this is the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResult"];
                    "application/xml": components["schemas"]["RunResult"];
                };
            };
            /** @description Accepted and still going (or asked to run asynchronously). */
            202: {
                headers: {
                    /** @description The execution status of the run. */
                    Location?: string;
                    /** @description `respond-async` when the run was asked to be asynchronous. */
                    "Preference-Applied"?: string;
                    /** @description `true` when this is the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunAccepted"];
                    "application/xml": components["schemas"]["RunAccepted"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteChoreo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The Choreo id without its leading slash, such as `Library/Utilities/Encoding/Base64Encode`; slashes stay as they are. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    listExecutions: {
        parameters: {
            query?: {
                /** @description Extension. Lists retained runs in this status (`any`: all); without any parameter, the running runs. */
                status?: "RUNNING" | "SUCCESS" | "ERROR" | "TERMINATED_MANUALLY" | "TERMINATED_LIMIT" | "any";
                /** @description Extension. Runs of this Choreo. */
                choreo?: string;
                /** @description Extension. Runs started at or after this time (epoch ms). */
                since?: string;
                /** @description Extension. Runs started at or before this time (epoch ms). */
                until?: string;
                /** @description Extension. Entries at most (1–500, default 50). */
                limit?: string;
                /** @description Extension. `next` of the previous answer: the page after it. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The running executions, or a page of the retained ones. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunningExecutions"] | components["schemas"]["ExecutionHistory"];
                    "application/xml": components["schemas"]["RunningExecutions"] | components["schemas"]["ExecutionHistory"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    getExecution: {
        parameters: {
            query?: {
                /** @description Extension. `outputs` adds the outputs of an ended run; `steps` the step history. */
                view?: "outputs" | "steps";
            };
            header?: never;
            path: {
                /** @description The execution id: 32 lowercase hexadecimal digits. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The execution. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExecutionStatus"];
                    "application/xml": components["schemas"]["ExecutionStatus"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    terminateExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The execution id: 32 lowercase hexadecimal digits. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Terminated, or its termination requested. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    getExecutionEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `id` of the last event received: the stream resumes after it. */
                "last-event-id"?: string;
            };
            path: {
                /** @description The execution id: 32 lowercase hexadecimal digits. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run events, until the run has ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    redriveExecution: {
        parameters: {
            query?: never;
            header?: {
                /** @description Extension. The same key with the same request answers with the first run (`Idempotent-Replayed: true`); with another request, 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description The execution id: 32 lowercase hexadecimal digits. */
                id: string;
            };
            cookie?: never;
        };
        /** @description Inputs that replace the run’s; optional. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RunRequest"];
                "application/xml": components["schemas"]["RunRequest"];
            };
        };
        responses: {
            /** @description The redrive is accepted: its execution to poll. */
            202: {
                headers: {
                    /** @description The execution status of the run. */
                    Location?: string;
                    /** @description `true` when this is the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunAccepted"];
                    "application/xml": components["schemas"]["RunAccepted"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    listPresets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preset names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PresetList"];
                    "application/xml": components["schemas"]["PresetList"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    getPreset: {
        parameters: {
            query?: {
                /** @description Extension. `shown` shows the values of inputs not marked secret, to credentials that may write presets. */
                values?: "shown" | "masked";
            };
            header?: never;
            path: {
                /** @description A preset name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preset. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preset"];
                    "application/xml": components["schemas"]["Preset"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    putPreset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A preset name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        /** @description The inputs. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PresetRequest"];
                "application/xml": components["schemas"]["PresetRequest"];
            };
        };
        responses: {
            /** @description Replaced; values masked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preset"];
                    "application/xml": components["schemas"]["Preset"];
                };
            };
            /** @description Created; values masked. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preset"];
                    "application/xml": components["schemas"]["Preset"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePreset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A preset name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                    "application/xml": components["schemas"]["WebhookList"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"] | components["schemas"]["NotifySecret"];
                    "application/xml": components["schemas"]["Webhook"] | components["schemas"]["NotifySecret"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    putWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret. */
                name: string;
            };
            cookie?: never;
        };
        /** @description The subscription. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookRequest"];
                "application/xml": components["schemas"]["WebhookRequest"];
            };
        };
        responses: {
            /** @description Replaced (or, for `notify`, kept as it was). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"] | components["schemas"]["NotifySecret"];
                    "application/xml": components["schemas"]["Webhook"] | components["schemas"]["NotifySecret"];
                };
            };
            /** @description Created, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"] | components["schemas"]["NotifySecret"];
                    "application/xml": components["schemas"]["Webhook"] | components["schemas"]["NotifySecret"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedSecret"];
                    "application/xml": components["schemas"]["RotatedSecret"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveries"];
                    "application/xml": components["schemas"]["WebhookDeliveries"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret. */
                name: string;
                /** @description A delivery id (its `webhook-id`): `msg_` and 32 lowercase hexadecimal digits. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                    "application/xml": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    listSchedules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleList"];
                    "application/xml": components["schemas"]["ScheduleList"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                    "application/xml": components["schemas"]["Schedule"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    putSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        /** @description The schedule. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleRequest"];
                "application/xml": components["schemas"]["ScheduleRequest"];
            };
        };
        responses: {
            /** @description Replaced: the schedule and its next five ticks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                    "application/xml": components["schemas"]["Schedule"];
                };
            };
            /** @description Created: the schedule and its next five ticks. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                    "application/xml": components["schemas"]["Schedule"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        /** @description An optional note. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ScheduleStateChange"];
                "application/xml": components["schemas"]["ScheduleStateChange"];
            };
        };
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                    "application/xml": components["schemas"]["Schedule"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        /** @description An optional note. */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ScheduleStateChange"];
                "application/xml": components["schemas"]["ScheduleStateChange"];
            };
        };
        responses: {
            /** @description The schedule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                    "application/xml": components["schemas"]["Schedule"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    triggerSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Started (`Location` names the run), or left waiting under `buffer-one` (`TickBuffered`). */
            202: {
                headers: {
                    /** @description The execution status of the run. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunAccepted"] | components["schemas"]["TickBuffered"];
                    "application/xml": components["schemas"]["RunAccepted"] | components["schemas"]["TickBuffered"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    backfillSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit. */
                name: string;
            };
            cookie?: never;
        };
        /** @description The range. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillRequest"];
                "application/xml": components["schemas"]["BackfillRequest"];
            };
        };
        responses: {
            /** @description The runs started, and the ticks that started none. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Backfill"];
                    "application/xml": components["schemas"]["Backfill"];
                };
            };
            /** @description BAD_REQUEST: A malformed request: the domain header, a parameter or the body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or wrong credentials (with `WWW-Authenticate`). */
            401: {
                headers: {
                    /** @description `Basic realm="…", charset="UTF-8"`. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: The credentials may not do this, or the request came over plain HTTP behind a proxy. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: Content-Type is not one the body may have. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description TOO_MANY_REQUESTS: A limit refused it for now (`Retry-After`). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    captureCallbackGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of the call back URL the run handed out. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded; the callback has no forwarding URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Recorded; on to the forwarding URL of the callback (`Location`). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    captureCallbackPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of the call back URL the run handed out. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded; the callback has no forwarding URL. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Recorded; on to the forwarding URL of the callback (`Location`). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    deliverRunCallback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of the call back URL the run handed out. */
                token: string;
            };
            cookie?: never;
        };
        /** @description Any body, at most 64 KiB: it becomes the result of the waiting step. */
        requestBody?: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description Delivered; the run goes on. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackDelivered"];
                    "application/xml": components["schemas"]["CallbackDelivered"];
                };
            };
            /** @description NOT_FOUND: Nothing here for these credentials. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description NOT_ACCEPTABLE: Accept names neither JSON nor XML. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The resource is not in a state that allows this. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body, or what it would store, is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description INTERNAL_ERROR: A fault of the service; the request id finds it in the logs. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: Redis, or what the request needs, is briefly unavailable (`Retry-After`). */
            503: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/xml": components["schemas"]["Error"];
                };
            };
        };
    };
    liveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    readiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Redis does not answer (`Retry-After`). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    openApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    apiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HTML page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
}
