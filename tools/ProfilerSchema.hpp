#pragma once
// The tables of torch_npu's ascend_pytorch_profiler_R.db, schema 1.0.0, as the profiler declares
// them (PYTORCH_API's times are TEXT there), and the enum tables' rows. Tools that later altered
// real files add OVERLAP_ANALYSIS, connectionCats, status_info and 'depth' columns: not here.

namespace marey {

inline constexpr const char* kProfilerSchema =
    "CREATE TABLE NPU_INFO (id INTEGER,name TEXT);"
    "CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER);"
    "CREATE TABLE HOST_INFO (hostUid TEXT,hostName TEXT);"
    "CREATE TABLE ENUM_HCCL_RDMA_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_MSTX_EVENT_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_HCCL_LINK_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim "
    "INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats "
    "INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes "
    "INTEGER,outputShapes INTEGER,attrInfo INTEGER, waitNs INTEGER);"
    "CREATE TABLE ENUM_HCCL_TRANSPORT_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType "
    "INTEGER,planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank "
    "INTEGER,dstRank INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType "
    "INTEGER,opId INTEGER);"
    "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId "
    "INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId "
    "INTEGER,taskId INTEGER,modelId INTEGER);"
    "CREATE TABLE NPU_MEM (type INTEGER,ddr NUMERIC,hbm NUMERIC,timestampNs INTEGER,deviceId "
    "INTEGER);"
    "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId "
    "INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType "
    "INTEGER,algType INTEGER,count NUMERIC,opType INTEGER, waitNs INTEGER);"
    "CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid "
    "INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);"
    "CREATE TABLE NPU_OP_MEM (operatorName INTEGER,addr INTEGER,type INTEGER,size "
    "INTEGER,timestampNs INTEGER,globalTid INTEGER,totalAllocate NUMERIC,totalReserve "
    "NUMERIC,component INTEGER,deviceId INTEGER);"
    "CREATE TABLE HBM (deviceId INTEGER,timestampNs INTEGER,bandwidth NUMERIC,hbmId INTEGER,type "
    "INTEGER);"
    "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC);"
    "CREATE TABLE ENUM_HCCL_DATA_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE LLC (deviceId INTEGER,llcId INTEGER,timestampNs INTEGER,hitRate "
    "REAL,throughput INTEGER,mode INTEGER);"
    "CREATE TABLE ACC_PMU (accId INTEGER,readBwLevel INTEGER,writeBwLevel INTEGER,readOstLevel "
    "INTEGER,writeOstLevel INTEGER,timestampNs NUMERIC,deviceId INTEGER);"
    "CREATE TABLE SOC_BANDWIDTH_LEVEL (l2BufferBwLevel INTEGER,mataBwLevel INTEGER,timestampNs "
    "NUMERIC,deviceId INTEGER);"
    "CREATE TABLE META_DATA (name TEXT,value TEXT);"
    "CREATE TABLE AICORE_FREQ (deviceId INTEGER,timestampNs NUMERIC,freq INTEGER);"
    "CREATE TABLE ENUM_MODULE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
    "CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER,timestampNs INTEGER,totalReserved "
    "NUMERIC,deviceId INTEGER);"
    "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
    "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);"
    "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
    "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER, "
    "totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER);"
    "CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime "
    "INTEGER, activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, "
    "allocationTotalAllocated INTEGER, allocationTotalReserved INTEGER, allocationTotalActive "
    "INTEGER, releaseTotalAllocated INTEGER, releaseTotalReserved INTEGER, releaseTotalActive "
    "INTEGER, streamPtr INTEGER, deviceId INTEGER);"
    "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, "
    "name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes "
    "INTEGER, callchainId INTEGER, type INTEGER);"
    "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
    "CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER, stackDepth INTEGER)";

// Built after the rows are in: one sort instead of a b-tree insert per row.
inline constexpr const char* kProfilerIndexes =
    "CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId);"
    "CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId)";

// The enum tables' rows, as the profiler writes them.
inline constexpr const char* kProfilerEnums =
    "INSERT INTO ENUM_API_TYPE VALUES (5000,'runtime'),(5500,'hccl'),(10000,'node'),"
    "(15000,'model'),(20000,'acl'),(50001,'op'),(50002,'queue'),(50003,'trace'),(50004,'mstx');"
    "INSERT INTO ENUM_HCCL_DATA_TYPE VALUES (0,'INT8'),(1,'INT16'),(2,'INT32'),(3,'FP16'),"
    "(4,'FP32'),(5,'INT64'),(6,'UINT64'),(7,'UINT8'),(8,'UINT16'),(9,'UINT32'),(10,'FP64'),"
    "(11,'BFP16'),(12,'INT128'),(65534,'N/A'),(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_HCCL_LINK_TYPE VALUES (0,'ON_CHIP'),(1,'HCCS'),(2,'PCIE'),(3,'ROCE'),"
    "(4,'SIO'),(5,'HCCS_SW'),(6,'STANDARD_ROCE'),(7,'RESERVED'),(65534,'N/A'),"
    "(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_HCCL_TRANSPORT_TYPE VALUES (0,'SDMA'),(1,'RDMA'),(2,'LOCAL'),(65534,'N/A'),"
    "(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_HCCL_RDMA_TYPE VALUES (0,'RDMA_SEND_NOTIFY'),(1,'RDMA_SEND_PAYLOAD'),"
    "(2,'RDMA_PAYLOAD_PREPARE'),(3,'RDMA_PAYLOAD_CHECK'),(4,'RDMA_PAYLOAD_ACK'),"
    "(5,'RDMA_SEND_OP'),(65534,'N/A'),(65535,'INVALID_TYPE');"
    "INSERT INTO ENUM_MSTX_EVENT_TYPE VALUES (0,'marker'),(1,'push/pop'),(2,'start/end'),"
    "(3,'marker_ex');"
    "INSERT INTO ENUM_MODULE VALUES (0,'SLOG'),(1,'IDEDD'),(2,'IDEDH'),(3,'HCCL'),(4,'FMK'),"
    "(5,'HIAIENGINE'),(6,'DVPP'),(7,'RUNTIME'),(8,'CCE'),(9,'HDC'),(10,'DRV'),(11,'MDCFUSION'),"
    "(12,'MDCLOCATION'),(13,'MDCPERCEPTION'),(14,'MDCFSM'),(15,'MDCCOMMON'),(16,'MDCMONITOR'),"
    "(17,'MDCBSWP'),(18,'MDCDEFAULT'),(19,'MDCSC'),(20,'MDCPNC'),(21,'MLL'),(22,'DEVMM'),"
    "(23,'KERNEL'),(24,'LIBMEDIA'),(25,'CCECPU'),(26,'ASCENDDK'),(27,'ROS'),(28,'HCCP'),"
    "(29,'ROCE'),(30,'TEFUSION'),(31,'PROFILING'),(32,'DP'),(33,'APP'),(34,'TS'),(35,'TSDUMP'),"
    "(36,'AICPU'),(37,'LP'),(38,'TDT'),(39,'FE')"
    ",(40,'MD'),(41,'MB'),(42,'ME'),(43,'IMU'),(44,'IMP'),(45,'GE'),(46,'MDCFUSA')"
    ",(47,'CAMERA'),(48,'ASCENDCL'),(49,'TEEOS'),(50,'ISP'),(51,'SIS'),(52,'HSM'),(53,'DSS')"
    ",(54,'PROCMGR'),(55,'BBOX'),(56,'AIVECTOR'),(57,'TBE'),(58,'FV'),(59,'MDCMAP')"
    ",(60,'TUNE'),(61,'HSS'),(62,'FFTS'),(63,'OP'),(64,'UDF'),(65,'HICAID'),(66,'TSYNC')"
    ",(67,'AUDIO'),(68,'TPRT'),(69,'ASCENDCKERNEL'),(70,'ASYS'),(71,'ATRACE'),(72,'RTC')"
    ",(73,'SYSMONITOR'),(74,'AMP'),(75,'ADETECT'),(76,'MBUFF'),(77,'CUSTOM')"
    ";"
    "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION_MICRO','0'),('SCHEMA_VERSION_MINOR','0'),"
    "('SCHEMA_VERSION_MAJOR','1'),('SCHEMA_VERSION','1.0.0')";

// ENUM_API_TYPE codes and ENUM_HCCL_* values the generated rows use.
inline constexpr int64_t kApiNode = 10000, kApiAcl = 20000, kApiOp = 50001, kApiQueue = 50002;
inline constexpr int64_t kHcclFp32 = 4, kHcclSdma = 0, kHcclLinkHccs = 1, kHcclNone = 65535;

}  // namespace marey
